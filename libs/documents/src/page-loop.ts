import { DomainError } from '@docconv/contracts';
import type { PageReport } from './ocr/ocr-page';
import { failedPageReport, NoPageRead, PageNotRead } from './page-failure';

/** Asked before each page: true once the job's owner has cancelled it, so the file stops after the page in hand. */
export type StopSignal = () => boolean;

/** What reading a file page by page gave: each page's report, and whether it stopped early. */
export interface PageLoopResult {
  reports: PageReport[];
  /** The job was cancelled before every page was read: `reports` covers the pages read until then. */
  stopped: boolean;
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
 */
export async function readPageByPage(
  pages: number | PageRange,
  displayName: string,
  read: (page: number) => Promise<PageReport>,
  onPage: (done: number) => void,
  shouldStop: StopSignal = () => false,
): Promise<PageLoopResult> {
  const { first, last } = typeof pages === 'number' ? { first: 1, last: pages } : pages;
  const reports: PageReport[] = [];
  let firstError: unknown;
  for (let page = first; page <= last; page++) {
    // A page can be read without ever leaving the microtask queue; a turn of the event loop here
    // lets the thread hear a stop (a message from the worker) before it reads the next one.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (shouldStop()) return { reports, stopped: true };
    try {
      reports.push(await read(page));
    } catch (error) {
      firstError ??= error;
      reports.push(failedPageReport(page, error, displayName));
    }
    onPage(page - first + 1);
  }
  if (typeof pages === 'number') requireSomePage(reports, firstError);
  return { reports, stopped: false };
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
