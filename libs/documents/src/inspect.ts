import { DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from './decompression';
import { assertNoEntityDeclarations } from './html/entity-declarations';
import { countHtmlPages } from './html/extract-html';
import { countEmailPages } from './email/read-email';
import { countEpubPages } from './epub/extract-epub';
import { countHwpPages, HwpFile } from './hwp/hwp-file';
import { inspectCsv } from './csv/extract-csv';
import { assertNoMacros, countViaMetadata } from './legacy/inspect-legacy';
import { countTextPages } from './text/extract-text';
import { countHwpxPages } from './hwpx/hwpx-file';
import { countImages } from './image/inspect-image';
import type { FileKind, Inspection } from './kinds';
import { inspectMedia } from './media/inspect-media';
import { countDocxPages, countSheets, countSlides } from './office/inspect-office';
import { inspectPdf } from './pdf/inspect-pdf';

const pages = (n: number): Inspection => ({ pages: n, images: 0, durationSeconds: 0 });

/**
 * Measures what is priced: pages, images, media seconds. Throws a DomainError on an unreadable
 * file, and a 413 on one whose compressed parts would expand past `limits`.
 */
export async function inspect(
  path: string,
  kind: FileKind,
  mime: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<Inspection> {
  switch (kind) {
    case 'pdf': {
      const pdf = await inspectPdf(path, displayName);
      return { ...pages(pdf.pages), needsOcr: pdf.needsOcr };
    }
    case 'docx':
      return pages(await countDocxPages(path, displayName, limits));
    case 'pptx':
      return pages(await countSlides(path, displayName, limits));
    case 'xlsx':
      return pages(await countSheets(path, displayName, limits));
    case 'hwp': {
      const file = HwpFile.open(path, displayName, limits);
      const count = countHwpPages(file);
      await file.checkStreams();
      return pages(count);
    }
    case 'hwpx':
      return pages(await countHwpxPages(path, displayName, limits));
    case 'image':
      return { pages: 0, images: await countImages(path, mime, displayName), durationSeconds: 0 };
    case 'audio':
    case 'video':
      return { pages: 0, images: 0, durationSeconds: (await inspectMedia(path, displayName)).seconds };
    case 'markdown':
      return pages(0);
    case 'text':
      return pages(await countTextPages(path, displayName));
    case 'html':
      await assertNoEntityDeclarations(path, displayName);
      return pages(await countHtmlPages(path, displayName));
    case 'csv':
    case 'tsv':
      // A table is one sheet, priced like a spreadsheet's; its size is held to the sheet limits.
      await inspectCsv(path, displayName, kind === 'tsv' ? '\t' : undefined);
      return pages(1);
    case 'epub':
      return pages(await countEpubPages(path, displayName, limits));
    case 'odt':
    case 'ods':
    case 'odp':
    case 'doc':
    case 'xls':
    case 'ppt':
    case 'rtf':
      await assertNoMacros(path, kind, displayName, limits);
      return pages(await countViaMetadata(path, kind, displayName, limits));
    case 'eml':
    case 'msg':
      return pages(await countEmailPages(path, kind, displayName));
  }
}
