import { DomainError } from '@docconv/contracts';
import { readFile } from 'node:fs/promises';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import { PDF_OPTIONS, pdfjs } from './pdfjs';

export interface PageProgress {
  (donePages: number): void;
}

/**
 * Markdown from a PDF's text layer: the text of each page in drawing order, lines rebuilt
 * from the items' vertical positions, paragraphs separated by blank lines, pages by a rule.
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
    const pages: string[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      try {
        const page = await document.getPage(n);
        const content = await page.getTextContent();
        pages.push(linesOf(content.items.filter((i): i is TextItem => 'str' in i)));
        page.cleanup();
      } catch (error) {
        throw new DomainError(
          'file_processing_failed',
          `Page ${n} of ${displayName} could not be read (${error instanceof Error ? error.message : String(error)}). Check the file and upload it again.`,
        );
      }
      onPage(n);
    }
    return pages.join('\n\n---\n\n').trim() + '\n';
  } finally {
    await task.destroy();
  }
}

function linesOf(items: TextItem[]): string {
  const lines: string[] = [];
  let current = '';
  let lastY: number | undefined;
  let lastHeight = 0;
  for (const item of items) {
    const y = (item.transform as number[])[5];
    if (lastY !== undefined && Math.abs(y - lastY) > Math.max(2, lastHeight * 0.5)) {
      lines.push(current.trimEnd());
      if (Math.abs(y - lastY) > lastHeight * 1.8) lines.push('');
      current = '';
    }
    current += item.str;
    if (item.hasEOL) current += ' ';
    lastY = y;
    lastHeight = item.height || lastHeight;
  }
  lines.push(current.trimEnd());
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
