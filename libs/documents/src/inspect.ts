import { countHwpPages, HwpFile } from './hwp/hwp-file';
import { countHwpxPages, readHwpxSections } from './hwpx/hwpx-file';
import { countImages } from './image/inspect-image';
import type { FileKind, Inspection } from './kinds';
import { inspectMedia } from './media/inspect-media';
import { countDocxPages, countSheets, countSlides } from './office/inspect-office';
import { countPdfPages } from './pdf/inspect-pdf';

const pages = (n: number): Inspection => ({ pages: n, images: 0, durationSeconds: 0 });

/** Measures what is priced: pages, images, media seconds. Throws a DomainError on an unreadable file. */
export async function inspect(path: string, kind: FileKind, mime: string, displayName: string): Promise<Inspection> {
  switch (kind) {
    case 'pdf':
      return pages(await countPdfPages(path, displayName));
    case 'docx':
      return pages(await countDocxPages(path, displayName));
    case 'pptx':
      return pages(await countSlides(path, displayName));
    case 'xlsx':
      return pages(await countSheets(path, displayName));
    case 'hwp':
      return pages(countHwpPages(HwpFile.open(path, displayName)));
    case 'hwpx':
      return pages(countHwpxPages(await readHwpxSections(path, displayName)));
    case 'image':
      return { pages: 0, images: await countImages(path, mime, displayName), durationSeconds: 0 };
    case 'audio':
    case 'video':
      return { pages: 0, images: 0, durationSeconds: (await inspectMedia(path, displayName)).seconds };
    case 'markdown':
      return pages(0);
  }
}
