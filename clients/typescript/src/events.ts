import type { DocconvClient, JobStatus } from './client';
import { DocconvError } from './errors';
import type { Job } from './normalize';

/** Where a job stands, as each event of GET /api/v1/jobs/{job_id}/events carries it. */
export interface JobEventSnapshot {
  job_id: string;
  status: JobStatus;
  done_pages: number;
  total_pages: number;
  done_files: number;
  total_files: number;
  xlsx_advanced_status: Job['xlsx_advanced_status'];
}

/**
 * One event of a job's stream: `status` (the current state when the stream opens, then each
 * change of status) or `progress` (more pages or files done).
 */
export interface JobEvent {
  type: 'status' | 'progress';
  job: JobEventSnapshot;
}

/**
 * A page of a job's result, final, as the service delivers it while the job runs (a `page` event):
 * joined in `seq` order, a job's pages are its result Markdown.
 */
export interface DeliveredPage {
  /** From 1, in the order delivered. */
  seq: number;
  /** The job's attempt (a retried job delivers again from 1). */
  retry: number;
  file: string;
  /** The page of a PDF or frame of an image; null for a file delivered whole. */
  page: number | null;
  markdown: string;
  /** The page's blocks as the service's document model has them. */
  blocks: unknown[];
  /** The event's id: give it as `lastEventId` to follow again after this page. */
  id: string;
}

export interface StreamJobEventsOptions {
  /** Called with each event, in the order the service sent them. */
  onEvent?: (event: JobEvent) => void;
  /** Called with each page of the result as it is delivered (final), in order. */
  onPage?: (page: DeliveredPage) => void;
  /** The id of the last page received before (`DeliveredPage.id`): the stream starts after it. */
  lastEventId?: string;
  /** Stops listening: the call then rejects with the signal's reason (an `AbortError` DOMException by default). */
  signal?: AbortSignal;
}

/** One message of a `text/event-stream`: its event name (`message` when unnamed), data and last event id. */
export interface EventStreamMessage {
  event: string;
  data: string;
  id: string;
}

/**
 * An incremental `text/event-stream` parser following the HTML standard: lines end in CRLF,
 * LF or CR (a CRLF split between two chunks counts once); `data:` lines of one event are
 * joined with LF; lines starting with `:` (comments, heartbeats) are skipped; an event is
 * dispatched at the blank line that ends it, and one the stream ends in the middle of is dropped.
 */
export class EventStreamParser {
  private buffer = '';
  private data = '';
  private event = '';
  private id = '';

  constructor(private readonly onMessage: (message: EventStreamMessage) => void) {}

  /** Feeds decoded text, in chunks of any size. */
  push(text: string): void {
    this.buffer += text;
    const lineEnd = /\r\n|\n|\r/g;
    let start = 0;
    for (let match = lineEnd.exec(this.buffer); match !== null; match = lineEnd.exec(this.buffer)) {
      // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) break;
      this.line(this.buffer.slice(start, match.index));
      start = match.index + match[0].length;
    }
    this.buffer = this.buffer.slice(start);
  }

  /** The stream ended: a last line cut short by it is read, and an unfinished event is dropped. */
  end(): void {
    if (this.buffer.endsWith('\r')) this.line(this.buffer.slice(0, -1));
    this.buffer = '';
    this.data = '';
    this.event = '';
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.event = value;
        break;
      case 'data':
        this.data += `${value}\n`;
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      default: // `retry` and unknown fields mean nothing here
    }
  }

  private dispatch(): void {
    const { data, event } = this;
    this.data = '';
    this.event = '';
    if (data === '') return;
    this.onMessage({ event: event || 'message', data: data.slice(0, -1), id: this.id });
  }
}

/** The error for a connection that broke while the stream was open (not a clean end of the stream). */
function brokenOff(jobId: string, cause: unknown): DocconvError {
  return new DocconvError(
    {
      status: 0,
      title: 'Connection lost',
      detail: `The event stream of job ${jobId} broke off; read the job, or follow it again.`,
      code: 'network_error',
    },
    { cause },
  );
}

const isJobEventType = (event: string): event is JobEvent['type'] => event === 'status' || event === 'progress';

/** Reads and checks an event's JSON data: the service's snapshot of the job. */
function readSnapshot(data: string, url: string): JobEventSnapshot {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw DocconvError.invalidResponse(`${url} sent an event whose data is not JSON.`);
  }
  const snapshot = (parsed ?? {}) as Partial<Record<keyof JobEventSnapshot, unknown>>;
  const counts = [snapshot.done_pages, snapshot.total_pages, snapshot.done_files, snapshot.total_files];
  if (
    typeof snapshot.job_id !== 'string' ||
    typeof snapshot.status !== 'string' ||
    !counts.every((n) => typeof n === 'number')
  ) {
    throw DocconvError.invalidResponse(`${url} sent an event that is not a job snapshot.`);
  }
  return {
    job_id: snapshot.job_id,
    status: snapshot.status as JobStatus,
    done_pages: snapshot.done_pages as number,
    total_pages: snapshot.total_pages as number,
    done_files: snapshot.done_files as number,
    total_files: snapshot.total_files as number,
    xlsx_advanced_status: (snapshot.xlsx_advanced_status ?? null) as JobEventSnapshot['xlsx_advanced_status'],
  };
}

/** Reads and checks a `page` event's data. */
function readPage(data: string, url: string): Omit<DeliveredPage, 'id'> {
  let parsed: Partial<DeliveredPage>;
  try {
    parsed = JSON.parse(data) as Partial<DeliveredPage>;
  } catch {
    throw DocconvError.invalidResponse(`${url} sent a page whose data is not JSON.`);
  }
  if (typeof parsed.seq !== 'number' || typeof parsed.markdown !== 'string' || typeof parsed.file !== 'string') {
    throw DocconvError.invalidResponse(`${url} sent a page event that is not a page.`);
  }
  return {
    seq: parsed.seq,
    retry: parsed.retry ?? 0,
    file: parsed.file,
    page: parsed.page ?? null,
    markdown: parsed.markdown,
    blocks: parsed.blocks ?? [],
  };
}

/**
 * Follows a job live over Server-Sent Events (GET /api/v1/jobs/{job_id}/events): `onEvent`
 * gets the current state first, then each change, and the call resolves with the last
 * snapshot when the service closes the stream, which it does once the job is done, failed
 * or cancelled. A stream cut short (a restart, a proxy's timeout) also resolves with the last
 * snapshot: check its `status`, and poll or call again when it is not finished.
 *
 * Rejects with a {@link DocconvError} when the service refuses the stream (404 for a job that
 * is not the caller's, 401…), sends something that is not a job's events, or the connection
 * breaks mid-stream (code `network_error`); with the signal's
 * reason (an `AbortError` DOMException unless `abort()` was given another) once `signal` aborts;
 * and with whatever `onEvent` throws, after closing the stream. Browser-safe: fetch,
 * ReadableStream and TextDecoder only.
 */
export async function streamJobEvents(
  client: DocconvClient,
  jobId: string,
  options: StreamJobEventsOptions = {},
): Promise<JobEventSnapshot> {
  const { onEvent, onPage, lastEventId, signal } = options;
  signal?.throwIfAborted();
  const {
    data: body,
    error,
    response,
  } = await client.api.GET('/api/v1/jobs/{job_id}/events', {
    params: { path: { job_id: jobId }, header: lastEventId ? { 'Last-Event-ID': lastEventId } : {} },
    headers: { Accept: 'text/event-stream' },
    parseAs: 'stream',
    signal,
  });
  if (signal?.aborted) {
    await body?.cancel(signal.reason).catch(() => undefined);
    signal.throwIfAborted();
  }
  if (!response.ok) throw DocconvError.fromResponse(response, error);
  if (!body) throw DocconvError.invalidResponse(`${response.url} answered ${response.status} with no event stream.`);

  let last: JobEventSnapshot | undefined;
  const parser = new EventStreamParser((message) => {
    if (message.event === 'page') {
      onPage?.({ ...readPage(message.data, response.url), id: message.id });
      return;
    }
    if (!isJobEventType(message.event)) return; // events a later service may add
    last = readSnapshot(message.data, response.url);
    onEvent?.({ type: message.event, job: last });
  });
  const bytes: ReadableStream<Uint8Array> = body; // Node's types leave the chunk type open
  const reader = bytes.getReader();
  const stop = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const decoder = new TextDecoder();
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (cause) {
        signal?.throwIfAborted();
        throw brokenOff(jobId, cause);
      }
      if (chunk.done) break;
      parser.push(decoder.decode(chunk.value, { stream: true }));
    }
    signal?.throwIfAborted();
    parser.push(decoder.decode());
    parser.end();
  } catch (failure) {
    stop();
    throw failure;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  if (last === undefined) {
    throw DocconvError.invalidResponse(`${response.url} closed the event stream without sending the job's state.`);
  }
  return last;
}
