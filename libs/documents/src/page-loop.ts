import { DomainError } from '@docconv/contracts';
import type { PageReport } from './ocr/ocr-page';
import { failedPageReport, NoPageRead, PageNotRead } from './page-failure';

/**
 * Whether the job's owner has cancelled it. A page is delivered only once an answer asked after
 * it finished says no, so a page that finished after the cancel is never among those delivered.
 */
export type StopSignal = () => boolean | Promise<boolean>;

/** What reading a file page by page gave: each page's report, and whether it stopped early. */
export interface PageLoopResult {
  reports: PageReport[];
  /** The job was cancelled before every page was delivered: `reports` covers the pages delivered until then. */
  stopped: boolean;
  /** The pages read when the cancel was seen that had not been answered for: finished after it, so not delivered. */
  dropped?: PageRange;
}

/** Pages `first`…`last` of a file, counted from 1: the part of it one job of a fanned-out parse reads. */
export interface PageRange {
  first: number;
  last: number;
}

/**
 * Reads pages 1…`pages` (or the range `pages`) with `read`, which lays out its page and returns
 * its report. A page that cannot be read is reported `failed`, with why (see page-failure.ts), and
 * the next one is read (its price is given back). Over a whole file, when no page could be read at all, the
 * first page's error is thrown so the file fails as a whole; over a range that rule waits for the
 * file's other ranges (`requireSomePage`). `onPage` hears how many pages are finished, read or failed.
 *
 * `shouldStop` is asked before the first page and then again as each answer comes back, while the
 * next pages are read (one question at a time, so a page of text read in a millisecond does not wait
 * for a round trip): an answer of no delivers every page finished before it was asked. Once an
 * answer says the job was cancelled, reading ends at the page in hand, and the pages read since the
 * last no are dropped (`dropped`): the caller keeps only the pages `reports` names.
 * `onDelivered` hears the reports of the pages delivered so far each time an answer of no covers
 * more of them.
 */
export async function readPageByPage(
  pages: number | PageRange,
  displayName: string,
  read: (page: number) => Promise<PageReport>,
  onPage: (done: number) => void,
  shouldStop: StopSignal = () => false,
  onDelivered?: (delivered: PageReport[]) => void,
): Promise<PageLoopResult> {
  const { first, last } = typeof pages === 'number' ? { first: 1, last: pages } : pages;
  const reports: PageReport[] = [];
  let firstError: unknown;
  let delivered = 0; // how many of `reports` an answer of no covers
  let cancelled = false;
  let unanswerable: { error: unknown } | undefined;
  let asking: Promise<void> | undefined;
  const ask = (): Promise<void> => {
    const finished = reports.length;
    asking = Promise.resolve()
      .then(shouldStop)
      .then(
        (yes) => {
          if (yes) cancelled = true;
          else if (finished > delivered) {
            delivered = finished;
            onDelivered?.(reports.slice(0, delivered));
          }
        },
        (error: unknown) => {
          unanswerable = { error };
        },
      )
      .finally(() => (asking = undefined));
    return asking;
  };
  await ask();
  for (let page = first; page <= last && !cancelled && !unanswerable; page++) {
    try {
      reports.push(await read(page));
    } catch (error) {
      firstError ??= error;
      reports.push(failedPageReport(page, error, displayName));
    }
    onPage(page - first + 1);
    if (!asking) void ask();
    // A page can be read without ever leaving the microtask queue; a turn of the event loop here
    // lets the answer (a message to the thread) in before the next page.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  while (!cancelled && !unanswerable && delivered < reports.length) await (asking ?? ask());
  if (unanswerable) throw unanswerable.error;
  if (cancelled) {
    const dropped =
      reports.length > delivered ? { first: first + delivered, last: first + reports.length - 1 } : undefined;
    return { reports: reports.slice(0, delivered), stopped: true, dropped };
  }
  if (typeof pages === 'number') requireSomePage(reports, firstError);
  return { reports, stopped: false };
}

/** Of the pages laid out while reading, those a report names: a page dropped by a cancel is not. */
export function reportedPages<T extends { number?: number }>(pages: T[], reports: PageReport[]): T[] {
  const reported = new Set(reports.map((report) => report.page));
  return pages.filter((page) => page.number !== undefined && reported.has(page.number));
}

/**
 * A file of which no page could be read fails as a whole: with `firstError` when it is one of
 * ours that names what failed (an engine that is not available, a damaged file), else with the
 * first page's reason.
 */
export function requireSomePage(reports: PageReport[], firstError?: unknown): void {
  if (reports.length === 0 || reports.some((r) => r.source !== 'failed')) return;
  if (firstError instanceof DomainError && !(firstError instanceof PageNotRead)) throw firstError;
  throw new NoPageRead(
    reports[0].failure ?? 'unreadable',
    reports[0].notes?.[0] ?? 'No page of the file could be read.',
  );
}
