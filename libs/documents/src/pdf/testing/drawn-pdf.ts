import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Document } from '@docconv/model';
import type { Extraction } from '../../extract';
import { extractPdf } from '../extract-pdf';
import { pdfBytes } from './pdf-bytes';

/**
 * A PDF drawn by `draw` with pdfkit, read as the worker reads it (its pictures named under
 * `images/`), from a file in a folder of its own that is gone afterwards.
 */
export async function readDrawnPdf(
  name: string,
  draw: Parameters<typeof pdfBytes>[0],
): Promise<Extraction & { document: Document }> {
  const dir = await mkdtemp(join(tmpdir(), 'docconv-drawn-'));
  try {
    const path = join(dir, name);
    await writeFile(path, await pdfBytes(draw));
    const extraction = await extractPdf(path, name, () => undefined, undefined, undefined, 'images/');
    if (!extraction.document) throw new Error(`${name} was read without its document`);
    return { ...extraction, document: extraction.document };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
