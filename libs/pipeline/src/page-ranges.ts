import type { PageReport } from '@docconv/documents';
import { ORIENTATION_BLOCK_PAGES, type PageRange, type PdfPages } from '@docconv/reading';

/**
 * How a large PDF is cut into the `parse.range` jobs of a fanned-out parse: whether a job is
 * spread at all, how long its ranges are, and what a range holds when none of it was read.
 * Pure rules, so the sizes are tested without a worker.
 */

/** A fanned-out job gets about this many ranges per worker slot, so that a slot that finishes early takes another. */
const RANGES_PER_SLOT = 2;
/** No range is shorter than this (each costs a message, a read of the file and a stored part)… */
const MIN_RANGE_PAGES = 5;
/**
 * …or longer, when its pages look scanned: a range read again after a crash, or after a stopping
 * worker's grace period ran out, repeats at most this many pages.
 */
const MAX_RANGE_PAGES = 50;
/**
 * A PDF whose sampled pages all have a text layer is read at hundreds of pages a second: ranges
 * would cost about what they save, so it is spread only from this many pages (for fairness: one
 * slot would hold it for seconds)…
 */
const TEXT_FANOUT_MIN_PAGES = 1_000;
/** …and in ranges of up to this many pages (a second or two each). */
const MAX_TEXT_RANGE_PAGES = 500;

/** The page ranges of a file of `pages` pages cut every `rangePages` pages. */
export function pageRanges(pages: number, rangePages: number): PageRange[] {
  const ranges: PageRange[] = [];
  for (let first = 1; first <= pages; first += rangePages)
    ranges.push({ first, last: Math.min(pages, first + rangePages - 1) });
  return ranges;
}

/**
 * Whether a job's files are worth spreading over page ranges: one PDF of `minPages` pages or more
 * (FANOUT_MIN_PAGES; 0: never) with scanned pages, or a text PDF of TEXT_FANOUT_MIN_PAGES or more.
 */
export function spreads(files: { kind: string; pages: number; needsOcr: boolean }[], minPages: number): boolean {
  if (minPages === 0 || files.length !== 1 || files[0].kind !== 'pdf') return false;
  const [file] = files;
  return file.pages >= minPages && (file.needsOcr || file.pages >= TEXT_FANOUT_MIN_PAGES);
}

/**
 * How many pages each range of a PDF gets when `slots` worker slots read it: about
 * RANGES_PER_SLOT ranges per slot, at least MIN_RANGE_PAGES, at most MAX_RANGE_PAGES when its
 * pages need OCR and MAX_TEXT_RANGE_PAGES when they have a text layer; undefined when a single
 * slot would read it all anyway. Always a whole number of ORIENTATION_BLOCK_PAGES, so every range
 * starts at a block's first page and a page reads the same however many slots share the file.
 */
export function rangePagesFor(file: { pages: number; needsOcr: boolean }, slots: number): number | undefined {
  if (slots < 2) return undefined;
  const size = Math.ceil(file.pages / (slots * RANGES_PER_SLOT) / ORIENTATION_BLOCK_PAGES) * ORIENTATION_BLOCK_PAGES;
  return Math.min(file.needsOcr ? MAX_RANGE_PAGES : MAX_TEXT_RANGE_PAGES, Math.max(MIN_RANGE_PAGES, size));
}

/** `page 4`, or `pages 4–6`. */
export const pagesOf = ({ first, last }: PageRange) => (first === last ? `page ${first}` : `pages ${first}–${last}`);

/** What a range cancelled before it began holds. */
export const NOTHING_READ: PdfPages = { pages: [], reports: [], stopped: true };

/** A range none of whose pages could be read, each reported failed for `reason`. */
export function failedRange(range: PageRange, reason: string): PdfPages {
  const reports: PageReport[] = [];
  for (let page = range.first; page <= range.last; page++) reports.push({ page, source: 'failed', notes: [reason] });
  return { pages: [], reports, stopped: false };
}
