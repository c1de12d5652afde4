import { DomainError } from '@docconv/contracts';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { readBmpInfo } from './bmp';

/** How many images a file holds: every TIFF frame counts; other formats are one image. */
export async function countImages(path: string, mime: string, displayName: string): Promise<number> {
  try {
    if (mime === 'image/bmp') {
      readBmpInfo(await readFile(path));
      return 1;
    }
    const metadata = await sharp(path, { pages: -1, limitInputPixels: 268_402_689 }).metadata();
    if (!metadata.width || !metadata.height) throw new Error('no dimensions');
    return mime === 'image/tiff' ? Math.max(1, metadata.pages ?? 1) : 1;
  } catch (error) {
    throw new DomainError(
      'unsupported_format',
      `${displayName} is not a readable image (${error instanceof Error ? error.message.split('\n')[0] : 'unknown error'}). Check that the file is complete.`,
    );
  }
}
