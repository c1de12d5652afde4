import { spawn } from 'node:child_process';
import sharp from 'sharp';

/** The longer side of a page preview, in pixels: sharp on a phone, light enough for a list of pages. */
export const PREVIEW_SIDE = 1200;

/**
 * Page `page` (from 1) of a PDF, or frame `page` of an image, as a PNG preview whose longer side
 * is at most PREVIEW_SIDE pixels: what a reader compares a page's Markdown and boxes with.
 */
export function renderPreview(path: string, kind: 'pdf' | 'image', page: number): Promise<Buffer> {
  if (kind === 'image') {
    return sharp(path, { page: page - 1, limitInputPixels: 200_000_000 })
      .resize(PREVIEW_SIDE, PREVIEW_SIDE, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
  }
  return new Promise((resolve, reject) => {
    const child = spawn(
      'pdftoppm',
      ['-png', '-scale-to', String(PREVIEW_SIDE), '-f', String(page), '-l', String(page), '-singlefile', path],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error('pdftoppm (poppler-utils) is not installed') : error),
    );
    child.on('close', (code) => {
      if (code === 0 && out.length > 0) resolve(Buffer.concat(out));
      else
        reject(new Error(`pdftoppm exited with ${code}: ${Buffer.concat(err).toString('utf8').trim().slice(0, 200)}`));
    });
  });
}
