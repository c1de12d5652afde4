import { DomainError } from '@docconv/contracts';
import { readFile } from 'node:fs/promises';
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api';
import { PDF_OPTIONS, pdfjs } from './pdfjs';

/** At most this many pages, spread over the file, are looked at for a text layer. */
const TEXT_SAMPLE_PAGES = 5;

/** What intake learns of a PDF: its exact page count, and whether some of its pages look scanned. */
export interface PdfInspection {
  pages: number;
  /** A sampled page had no visible character in its text layer: a scan, read by OCR at seconds a page. */
  needsOcr: boolean;
}

/**
 * The exact page count, read from the document structure without rendering anything, and a look
 * at the text layer of a few pages spread over the file.
 */
export async function inspectPdf(path: string, displayName: string): Promise<PdfInspection> {
  const data = new Uint8Array(await readFile(path));
  const task = (await pdfjs()).getDocument({ data, ...PDF_OPTIONS });
  try {
    const document = await task.promise;
    if (!Number.isSafeInteger(document.numPages) || document.numPages < 1) {
      throw new DomainError(
        'unsupported_format',
        `${displayName} declares no pages (its page tree is damaged). Re-save it from a PDF viewer.`,
      );
    }
    return { pages: document.numPages, needsOcr: await someScannedPage(document) };
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const name = (error as { name?: string }).name;
    if (name === 'PasswordException') {
      throw new DomainError(
        'encrypted_document',
        `${displayName} is protected by a password. Remove the password (print or save it unprotected) and upload it again.`,
      );
    }
    throw new DomainError(
      'unsupported_format',
      `${displayName} is not a readable PDF (${describe(error)}). Check that the file is complete and opens in a PDF viewer.`,
    );
  } finally {
    await task.destroy();
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').slice(0, 120);
}

/**
 * Whether one of the sampled pages (the first, the last and some between) has no visible
 * character in its text layer. A title page of a few words counts as text; a blank page as a
 * scan, which only makes the ranges of its file shorter.
 */
async function someScannedPage(document: PDFDocumentProxy): Promise<boolean> {
  const count = document.numPages;
  const step = Math.max(1, (count - 1) / (TEXT_SAMPLE_PAGES - 1));
  const sampled = new Set(
    Array.from({ length: Math.min(count, TEXT_SAMPLE_PAGES) }, (_, i) => 1 + Math.round(i * step)),
  );
  for (const n of sampled) {
    try {
      const page = await document.getPage(n);
      const content = await page.getTextContent();
      page.cleanup();
      const visible = content.items.reduce(
        (sum, item) => sum + ('str' in item ? item.str.replace(/\s/g, '').length : 0),
        0,
      );
      if (visible === 0) return true;
    } catch {
      return true; // a page that cannot be read now is no text page; the worker reports it
    }
  }
  return false;
}
