import { DomainError } from '@docconv/contracts';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { readBmpInfo } from './bmp';

/**
 * The most pixels one image (one TIFF frame) may have: a letter-size page scanned at 1,200 dpi.
 * OCR reads nothing more from more pixels, and decoding them is what a pixel bomb exploits.
 */
export const MAX_IMAGE_PIXELS = 150_000_000;

/**
 * How many images a file holds: every TIFF frame counts; other formats are one image. Only the
 * headers are read; an image (or frame) with more than MAX_IMAGE_PIXELS pixels is refused (413).
 */
export async function countImages(path: string, mime: string, displayName: string): Promise<number> {
  let frames: { width: number; height: number }[];
  try {
    if (mime === 'image/bmp') {
      frames = [readBmpInfo(await readFile(path))];
    } else {
      const metadata = await sharp(path, { pages: -1, limitInputPixels: false }).metadata();
      if (!metadata.width || !metadata.height) throw new Error('no dimensions');
      const count = mime === 'image/tiff' ? Math.max(1, metadata.pages ?? 1) : 1;
      frames = [];
      for (let page = 0; page < count; page++) {
        const frame = count === 1 ? metadata : await sharp(path, { page, limitInputPixels: false }).metadata();
        frames.push({ width: frame.width ?? 0, height: frame.height ?? 0 });
      }
    }
  } catch (error) {
    throw new DomainError(
      'unsupported_format',
      `${displayName} is not a readable image (${error instanceof Error ? error.message.split('\n')[0] : 'unknown error'}). Check that the file is complete.`,
    );
  }
  const index = frames.findIndex((f) => f.width * f.height > MAX_IMAGE_PIXELS);
  if (index >= 0) {
    const { width, height } = frames[index];
    throw new DomainError(
      'payload_too_large',
      `${displayName}${frames.length > 1 ? ` (frame ${index + 1})` : ''} is ${width} × ${height} pixels; an image may have at most ${MAX_IMAGE_PIXELS / 1_000_000} million. Scale it to 300–600 dpi and upload it again.`,
    );
  }
  return frames.length;
}
