import { DomainError } from '@docconv/contracts';
import { readFile } from 'node:fs/promises';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import {
  buildLines,
  splitAtGutter,
  marginKey,
  readingOrder,
  repeatedMargins,
  toMarkdown,
  type Line,
  type PageLines,
  type TextRun,
} from './layout';
import { PDF_OPTIONS, pdfjs } from './pdfjs';

export type PageProgress = (donePages: number) => void;

/**
 * Markdown from a PDF's text layer: positioned text gathered page by page, then laid out for
 * the whole document — running heads and page numbers that repeat on most pages dropped,
 * two-column pages read column by column, headings from font size, lists, aligned tables,
 * hyphenation mended, right-to-left lines kept in logical order.
 */
export async function extractPdf(path: string, displayName: string, onPage: PageProgress): Promise<string> {
  const data = new Uint8Array(await readFile(path));
  const task = (await pdfjs()).getDocument({ data, ...PDF_OPTIONS });
  try {
    let document: Awaited<typeof task.promise>;
    try {
      document = await task.promise;
    } catch (error) {
      throw new DomainError(
        'file_processing_failed',
        `${displayName} could not be read as a PDF: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }
    const pages: PageLines[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      try {
        const page = await document.getPage(n);
        const [x0, y0, x1, y1] = page.view;
        const height = y1 - y0;
        const content = await page.getTextContent();
        const runs: TextRun[] = content.items
          .filter((item): item is TextItem => 'str' in item)
          .map((item) => {
            const [a, b, , , e, f] = item.transform as number[];
            return {
              text: item.str,
              x: e - x0,
              y: y1 - f,
              width: item.width,
              size: Math.hypot(a, b) || item.height,
              rtl: item.dir === 'rtl',
            };
          });
        pages.push({ width: x1 - x0, height, lines: splitAtGutter(buildLines(runs), x1 - x0) });
        page.cleanup();
      } catch (error) {
        throw new DomainError(
          'file_processing_failed',
          `Page ${n} of ${displayName} could not be read (${error instanceof Error ? error.message : String(error)}). Check the file and upload it again.`,
        );
      }
      onPage(n);
    }
    return layoutDocument(pages);
  } finally {
    await task.destroy();
  }
}

/** The document-wide part of the layout: body size, heading sizes, margins, reading order. */
export function layoutDocument(pages: PageLines[]): string {
  const weights = new Map<number, number>();
  for (const page of pages) {
    for (const line of page.lines) {
      const size = Math.round(line.size * 2) / 2;
      weights.set(size, (weights.get(size) ?? 0) + line.text.length);
    }
  }
  const bodySize = [...weights.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
  const headingSizes = [...weights.keys()]
    .filter((s) => s >= bodySize * 1.15)
    .sort((a, b) => b - a)
    .slice(0, 4);
  const margins = repeatedMargins(pages);
  const ordered = pages.map((page) =>
    readingOrder({
      ...page,
      lines: page.lines.filter((line) => {
        if (line === page.lines[0] && isRunningHead(line, page, bodySize)) return false;
        const inMargin = line.y < page.height * 0.09 || line.y > page.height * 0.92;
        return !(inMargin && (margins.has(marginKey(line.text)) || isPageNumber(line.text)));
      }),
    }),
  );
  return toMarkdown(ordered, bodySize, headingSizes);
}

function isPageNumber(text: string): boolean {
  return /^\s*[-–]?\s*\d{1,4}\s*[-–]?\s*$/.test(text);
}

/** A page's first line, near the top, in type no larger than the body, starting or ending with a page number. */
function isRunningHead(line: Line, page: PageLines, bodySize: number): boolean {
  return (
    !/(?:\.\s*){4,}/.test(line.text) && // a contents entry (entry . . . page) is not a running head
    line.y < page.height * 0.2 &&
    line.size <= bodySize + 0.5 &&
    /^(\d{1,4}\s+\S.{8,}|\S.{8,}\s\d{1,4})$/.test(line.text)
  );
}
