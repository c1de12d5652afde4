import type { GreyImage } from '@docconv/ocr';
import { spawn } from 'node:child_process';

/** A part of a page, in points from its top-left corner. */
export interface PageArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * One PDF page (or an area of it) as a greyscale image at `dpi`, rendered by poppler's
 * `pdftoppm -gray` straight to PGM on its standard output (PNG output is far slower to write
 * and to read back).
 */
export async function renderPage(path: string, page: number, dpi: number, area?: PageArea): Promise<GreyImage> {
  const px = (points: number) => String(Math.max(0, Math.round((points * dpi) / 72)));
  const crop = area ? ['-x', px(area.x), '-y', px(area.y), '-W', px(area.width), '-H', px(area.height)] : [];
  return parsePgm(await pdftoppm(['-gray', '-r', String(dpi), ...crop, '-f', String(page), '-l', String(page), path]));
}

/** poppler's `pdftoppm` run with `args`, the image it writes to its standard output. */
export function pdftoppm(args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('pdftoppm', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error('pdftoppm (poppler-utils) is not installed on this worker') : error),
    );
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else
        reject(new Error(`pdftoppm exited with ${code}: ${Buffer.concat(err).toString('utf8').trim().slice(0, 200)}`));
    });
  });
}

/** A binary PGM (P5, 8-bit) image; comments in the header are skipped. */
export function parsePgm(bytes: Buffer): GreyImage {
  const fields: number[] = [];
  let i = 2;
  if (bytes.toString('latin1', 0, 2) !== 'P5') throw new Error('not a binary PGM image');
  while (fields.length < 3 && i < bytes.length) {
    const c = bytes[i];
    if (c === 0x23)
      while (i < bytes.length && bytes[i] !== 0x0a) i++; // # comment to end of line
    else if (c >= 0x30 && c <= 0x39) {
      let value = 0;
      while (i < bytes.length && bytes[i] >= 0x30 && bytes[i] <= 0x39) value = value * 10 + (bytes[i++] - 0x30);
      fields.push(value);
      continue;
    }
    i++;
  }
  const [width, height, max] = fields;
  if (!width || !height || max !== 255) throw new Error('unsupported PGM image (needs 8-bit greyscale)');
  const data = bytes.subarray(i + 1, i + 1 + width * height);
  if (data.length !== width * height) throw new Error('truncated PGM image');
  return { width, height, data };
}
