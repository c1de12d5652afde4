import type { DocconvClient } from './client';
import { DocconvError } from './errors';
import { streamJobEvents, type DeliveredPage } from './events';
import { FINISHED_STATUSES } from './jobs';
import type { Job } from './normalize';

export interface WaitOptions {
  /** Called with the job when the wait begins and whenever its status or progress changes. */
  onProgress?: (job: Job) => void;
  /**
   * How the wait learns of changes: `events` (the default) follows the job's event stream and
   * reads the job only when the stream ends, a few requests however long the job takes; `poll`
   * reads the job every `intervalMs`.
   */
  mode?: 'events' | 'poll';
  /**
   * Time between polls, and before following again after a stream broke off; 5000 ms by default.
   * A 429's `Retry-After` is honoured over it, so a wait never ends in 429.
   */
  intervalMs?: number;
  /** Give up (a DocconvError with code `timeout`) after this long; 24 hours by default. */
  timeoutMs?: number;
  /** Stops waiting: the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Called with each page of the result as it is delivered (final), each once and in order, even
   * across a stream that broke off and was followed again (mode `events`).
   */
  onPage?: (page: DeliveredPage) => void;
}

/** True when the job moved since `previous`: another status, or more pages or files done. */
function hasMoved(previous: Job | undefined, job: Job): boolean {
  return (
    previous === undefined ||
    previous.status !== job.status ||
    previous.done_pages !== job.done_pages ||
    previous.done_files !== job.done_files
  );
}

/** Failures a wait outlives: the service asked to slow down, was unreachable, or was briefly unavailable. */
function isPassing(error: unknown): error is DocconvError {
  return (
    error instanceof DocconvError &&
    (error.status === 429 ||
      error.status === 502 ||
      error.status === 503 ||
      error.status === 504 ||
      error.code === 'network_error')
  );
}

/**
 * Waits until the job is done, failed or cancelled and returns that last record; a failed job is
 * returned, not thrown, so the caller can read its `error_log` and `refundable`. A pending job is
 * refused at once: it only moves when confirmed.
 *
 * It follows the job's event stream (GET /api/v1/jobs/{job_id}/events), so a job of hours costs a
 * few requests, well inside any key's rate limit; a stream that ends early is followed again after
 * the job is read. A 429 waits out its `Retry-After`, and a service that is briefly unreachable is
 * tried again, until `timeoutMs`.
 */
export async function waitForJob(client: DocconvClient, jobId: string, options: WaitOptions = {}): Promise<Job> {
  const { onProgress, onPage, mode = 'events', intervalMs = 5_000, timeoutMs = 86_400_000, signal } = options;
  let lastPage: string | undefined; // the id of the last page handed to onPage
  const deadline = Date.now() + timeoutMs;
  let previous: Job | undefined;
  const seen = (job: Job) => {
    if (hasMoved(previous, job)) onProgress?.(job);
    previous = job;
  };
  const timedOut = () =>
    new DocconvError({
      status: 0,
      title: 'Timed out',
      detail: `Job ${jobId} is still ${previous?.status ?? 'unread'} (${previous?.done_pages ?? 0}/${previous?.total_pages ?? 0} pages) after ${timeoutMs} ms.`,
      code: 'timeout',
    });
  /** Sleeps `ms` (cut short by the deadline, which then throws) unless the signal aborts first. */
  const pause = async (ms: number) => {
    if (Date.now() + ms > deadline) throw timedOut();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(done, ms);
      function done() {
        signal?.removeEventListener('abort', abort);
        resolve();
      }
      function abort() {
        clearTimeout(timer);
        reject(signal!.reason as Error);
      }
      signal?.addEventListener('abort', abort, { once: true });
    });
  };
  const backOff = (error: DocconvError) =>
    pause(error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : intervalMs);

  for (;;) {
    signal?.throwIfAborted();
    let job: Job;
    try {
      job = await client.getJob(jobId);
    } catch (error) {
      if (!isPassing(error)) throw error;
      await backOff(error);
      continue;
    }
    seen(job);
    if (FINISHED_STATUSES.includes(job.status)) return job;
    if (job.status === 'pending') {
      throw new DocconvError({
        status: 0,
        title: 'Job not confirmed',
        detail: `Job ${jobId} is pending: confirm it before waiting for it.`,
        code: 'job_pending',
      });
    }
    if (mode === 'poll') {
      await pause(intervalMs);
      continue;
    }
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(timedOut()), Math.max(0, deadline - Date.now()));
    const abort = () => stop.abort(signal!.reason);
    signal?.addEventListener('abort', abort, { once: true });
    try {
      const last = await streamJobEvents(client, jobId, {
        signal: stop.signal,
        lastEventId: lastPage,
        onPage:
          onPage &&
          ((page) => {
            lastPage = page.id;
            onPage(page);
          }),
        // The end is reported with the whole record, which the loop reads next.
        onEvent: (event) => {
          if (!FINISHED_STATUSES.includes(event.job.status)) seen({ ...job, ...previous, ...event.job });
        },
      });
      // Finished: the loop reads the whole record. Cut short: it reads the job, then follows again.
      if (!FINISHED_STATUSES.includes(last.status)) await pause(Math.min(intervalMs, 1_000));
    } catch (error) {
      if (stop.signal.aborted) throw stop.signal.reason;
      if (!isPassing(error)) throw error;
      await backOff(error);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    }
  }
}
