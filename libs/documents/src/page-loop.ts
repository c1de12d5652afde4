import { DomainError } from '@docconv/contracts';
import type { PageReport } from './ocr/ocr-page';
import { failedPageReport, NoPageRead, PageNotRead } from './page-failure';

/**
 * Whether the job's owner has cancelled it, asked before the first page and after each page: a
 * page is delivered only when the answer after it is no, so a page that finished after the cancel
 * is never among those delivered, and the file stops there.
 */
export type StopSignal = () => boolean | Promise<boolean>;

/** What reading a file page by page gave: each page's report, and whether it stopped early. */
export interface PageLoopResult {
  reports: PageReport[];
  /** The job was cancelled before every page was delivered: `reports` covers the pages delivered until then. */
  stopped: boolean;
  /** The page in hand when the cancel was seen: read, but finished after the cancel, so not delivered. */
  dropped?: number;
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
 * Once `shouldStop` says the job was cancelled, the page in hand is dropped and reading ends:
 * the caller keeps only the pages `reports` names.
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
  if (await shouldStop()) return { reports, stopped: true };
  for (let page = first; page <= last; page++) {
    let report: PageReport;
    try {
      report = await read(page);
    } catch (error) {
      firstError ??= error;
      report = failedPageReport(page, error, displayName);
    }
    if (await shouldStop()) return { reports, stopped: true, dropped: page }; // finished after the cancel
    reports.push(report);
    onPage(page - first + 1);
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
