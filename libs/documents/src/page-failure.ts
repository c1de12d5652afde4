import { DomainError, type PageFailure } from '@docconv/contracts';
import type { ParagraphBlock, Provenance } from '@docconv/model';
import type { PageReport } from './ocr/ocr-page';
import type { Line, PageLines } from './pdf/layout';
import { blockLine, UNPLACED } from './pdf/model-blocks';

/**
 * A page that was not read: `failure` says why by code, the message in words (a clause that
 * follows "Page 3 of scan.pdf was not read: "). The page loop reports it failed and goes on.
 */
export class PageNotRead extends DomainError {
  constructor(
    readonly failure: PageFailure,
    reason: string,
  ) {
    super('file_processing_failed', reason);
  }
}

/** The report of a page that was not read, with its failure and the reason in a sentence. */
export function failedPageReport(page: number, error: unknown, displayName: string): PageReport {
  if (error instanceof PageNotRead) {
    return {
      page,
      source: 'failed',
      failure: error.failure,
      notes: [`${pageName(page, displayName)} was not read: ${error.message}.`],
    };
  }
  if (error instanceof DomainError) return { page, source: 'failed', failure: 'unreadable', notes: [error.message] };
  const why = error instanceof Error ? error.message : String(error);
  return {
    page,
    source: 'failed',
    failure: 'unreadable',
    notes: [`Page ${page} of ${displayName} could not be read (${why}).`],
  };
}

/**
 * A file none of whose pages was read: `failure` is its first page's, the message the sentence its
 * page report gives (and the job's error_log when the file was the job's only one).
 */
export class NoPageRead extends DomainError {
  constructor(
    readonly failure: PageFailure,
    sentence: string,
  ) {
    super('file_processing_failed', sentence);
  }
}

/** Why a file or page that was not read failed, by code: its own when it says, `unreadable` otherwise. */
export function failureOf(error: unknown): PageFailure {
  return error instanceof PageNotRead || error instanceof NoPageRead ? error.failure : 'unreadable';
}

/** What a reader of the Markdown sees in place of a file of a job that was not read at all. */
export function failedFileBlock(reason: string, file: string): ParagraphBlock {
  return notReadBlock('This file', oneLine(reason), { file });
}

/** One quoted paragraph: what was not read (in bold), why, and that it is not charged. */
function notReadBlock(name: string, reason: string, from: Provenance): ParagraphBlock {
  return {
    type: 'paragraph',
    quote: true,
    content: [
      { kind: 'text', text: `${name} was not read:`, bold: true },
      { kind: 'text', text: ` ${reason.replace(/\.$/, '')}. It is not charged.` },
    ],
    from,
  };
}

/** A reason on one line, as a quoted line of Markdown must be (an engine's message may hold several). */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function pageName(page: number, displayName: string): string {
  return `Page ${page} of ${displayName}`;
}

/**
 * What a reader of the Markdown sees where a page that was not read would be: one quoted line that
 * names the page (`page` of a PDF, `frame` of a multi-page image, or the `image` itself), says why
 * and that it was not charged.
 */
export function failedPageBlock(report: PageReport, unit: 'page' | 'frame' | 'image'): ParagraphBlock {
  const reason = report.notes?.[0] ?? '';
  // A reason of ours opens with its page's name ("Page 3 of scan.pdf was not read: …"): named once.
  const clause = oneLine(reason).replace(/^Page \d+ of .*? was not read: /, '');
  const name = unit === 'image' ? 'The image' : `${unit === 'page' ? 'Page' : 'Frame'} ${report.page}`;
  return notReadBlock(name, clause, UNPLACED);
}

/**
 * The pages with a marked line (failedPageBlock) on each page that was not read, in page order:
 * on its page when the page is known (its size, with no lines), on a page of its own otherwise.
 */
export function withFailedPages(
  pages: PageLines[],
  reports: PageReport[],
  unit: 'page' | 'frame' | 'image',
): PageLines[] {
  const failed = reports.filter((report) => report.source === 'failed');
  if (failed.length === 0) return pages;
  const out = [...pages];
  for (const report of failed) {
    const index = out.findIndex((page) => page.number === report.page);
    const page = index >= 0 ? out[index] : { number: report.page, width: 0, height: 0, lines: [] };
    const mark: Line = blockLine(
      { text: '', x: 0, right: page.width, y: 0, bottom: page.height, size: 0, rtl: false, runs: [], bold: false },
      [failedPageBlock(report, unit)],
    );
    const marked = { ...page, lines: [mark, ...page.lines] };
    if (index >= 0) out[index] = marked;
    else out.push(marked);
  }
  return out.sort((a, b) => (a.number ?? 0) - (b.number ?? 0));
}
