import sharp from 'sharp';
import { pdftoppm } from './pdf/render-page';

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
  return pdftoppm([
    '-png',
    '-scale-to',
    String(PREVIEW_SIDE),
    '-f',
    String(page),
    '-l',
    String(page),
    '-singlefile',
    path,
  ]);
}
