import { DomainError } from '@docconv/contracts';
import type { GreyImage } from '@docconv/ocr';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { ocrPageLines, ocrPageReport, typicalLineHeight, type PageReport } from '../ocr/ocr-page';
import type { PageReader, PageReading } from '../ocr/page-reader';
import { withFailedPages } from '../page-failure';
import { laidOut } from '../pdf/extract-pdf';
import type { PageLines } from '../pdf/layout';
import { decodeBmp } from './bmp';
import { MAX_IMAGE_PIXELS } from './inspect-image';
import type { Extraction } from '../extract';
import { readPageByPage, reportedPages, type StopSignal } from '../page-loop';

/**
 * Markdown from an image: each frame (the pages of a TIFF) turned upright by its EXIF
 * orientation, read by the job's OCR engine and laid out like a document page. A frame that
 * cannot be read is reported failed; `shouldStop` ends the reading between frames.
 */
export async function extractImage(
  path: string,
  mime: string,
  frames: number,
  displayName: string,
  onFrame: (done: number) => void,
  reader: PageReader,
  shouldStop?: StopSignal,
): Promise<Extraction> {
  const source = mime === 'image/bmp' ? await bmpAsPng(path, displayName) : path;
  const pages: PageLines[] = [];
  const readFrame = async (n: number): Promise<PageReport> => {
    const image = await greyFrame(source, n - 1, frames, displayName);
    let result: PageReading;
    try {
      result = await reader.readPage(image, n);
    } catch (error) {
      // A frame that is not read keeps its place, in pixels, for the line that says so.
      pages.push({ number: n, width: image.width, height: image.height, scale: 1, lines: [] });
      throw error;
    }
    // An image has no physical size worth trusting: scale it so its body text is 12 points high.
    const typical = typicalLineHeight(result);
    const scale = typical > 0 ? 12 / (typical * 0.8) : 1;
    pages.push({ ...ocrPageLines(result, reader.options.model, scale), number: n, scale });
    return ocrPageReport(n, result);
  };
  const { reports, stopped, dropped } = await readPageByPage(frames, displayName, readFrame, onFrame, shouldStop);
  const kept = stopped ? reportedPages(pages, reports) : pages;
  const laid = laidOut(withFailedPages(kept, reports, frames > 1 ? 'frame' : 'image'), displayName);
  return { ...laid, pages: reports, stopped, dropped };
}

async function greyFrame(
  source: string | Buffer,
  frame: number,
  frames: number,
  displayName: string,
): Promise<GreyImage> {
  try {
    const { data, info } = await sharp(source, { page: frame, limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate() // honour EXIF orientation
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data };
  } catch (error) {
    throw new DomainError(
      'file_processing_failed',
      `${displayName}${frames > 1 ? ` (frame ${frame + 1})` : ''} could not be read: ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
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
