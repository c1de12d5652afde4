import { DomainError } from '@docconv/contracts';
import { readFile } from 'node:fs/promises';
import { PDF_OPTIONS, pdfjs } from './pdfjs';

/** The exact page count, read from the document structure without rendering anything. */
export async function countPdfPages(path: string, displayName: string): Promise<number> {
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
    return document.numPages;
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
