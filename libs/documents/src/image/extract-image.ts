import { DomainError } from '@docconv/contracts';
import { tesseractRecognize } from '@docconv/ocr';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { decodeBmp } from './bmp';

/** Markdown from an image: each frame (TIFF pages) read by OCR, paragraphs kept, frames separated by a rule. */
export async function extractImage(
  path: string,
  mime: string,
  frames: number,
  displayName: string,
  onFrame: (done: number) => void,
): Promise<string> {
  const source = mime === 'image/bmp' ? await bmpAsPng(path, displayName) : path;
  const parts: string[] = [];
  for (let frame = 0; frame < frames; frame++) {
    try {
      const { text } = await tesseractRecognize(source, frame);
      parts.push(
        text
          .replace(/[ \t]+\n/g, '\n')
          .replace(/\n{3,}/g, '\n\n')
          .trim(),
      );
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw new DomainError(
        'file_processing_failed',
        `${displayName}${frames > 1 ? ` (frame ${frame + 1})` : ''} could not be read: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }
    onFrame(frame + 1);
  }
  return parts.join('\n\n---\n\n') + '\n';
}

async function bmpAsPng(path: string, displayName: string): Promise<Buffer> {
  try {
    const { pixels, width, height } = decodeBmp(await readFile(path));
    return await sharp(pixels, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer();
  } catch (error) {
    throw new DomainError(
      'file_processing_failed',
      `${displayName} could not be read: ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
}
