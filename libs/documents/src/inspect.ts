import { DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from './decompression';
import { assertNoEntityDeclarations } from './html/entity-declarations';
import { countHtmlPages } from './html/extract-html';
import type { HtmlContent } from './html/main-content';
import { countEmailPages } from './email/read-email';
import { countEpubPages } from './epub/extract-epub';
import { countHwpPages, HwpFile } from './hwp/hwp-file';
import { inspectCsv } from './csv/extract-csv';
import { assertNoMacros, countViaMetadata } from './legacy/inspect-legacy';
import { countTextPages } from './text/extract-text';
import { countHwpxPages } from './hwpx/hwpx-file';
import { countImages } from './image/inspect-image';
import { viaLibreOfficeEntries, type OfficeViaLibreOffice } from './formats';
import type { FileKind, Inspection } from './kinds';
import { inspectMedia } from './media/inspect-media';
import { countDocxPages, countSheets, countSlides } from './office/inspect-office';
import { inspectPdf } from './pdf/inspect-pdf';

/** One file to measure, as intake found it. */
interface Measured {
  path: string;
  mime: string;
  displayName: string;
  limits: DecompressionLimits;
  /** What of a web page is read, and so priced. */
  htmlContent: HtmlContent;
}

/** Measures one format's file; throws a DomainError when it cannot be read. */
type Inspector = (file: Measured) => Promise<Inspection>;

const pages = (n: number): Inspection => ({ pages: n, images: 0, durationSeconds: 0 });

/** Formats converted by LibreOffice: refused with macros, their pages from the file's metadata. */
const viaLibreOffice =
  (kind: OfficeViaLibreOffice): Inspector =>
  async ({ path, displayName, limits }) => {
    await assertNoMacros(path, kind, displayName, limits);
    return pages(await countViaMetadata(path, kind, displayName, limits));
  };

const media: Inspector = async ({ path, displayName }) => ({
  pages: 0,
  images: 0,
  durationSeconds: (await inspectMedia(path, displayName)).seconds,
});

/** A table is one sheet, priced like a spreadsheet's; its size is held to the sheet limits. */
const table =
  (delimiter?: string): Inspector =>
  async ({ path, displayName }) => {
    await inspectCsv(path, displayName, delimiter);
    return pages(1);
  };

/** How each format of the table (formats.ts) is measured: a kind without an inspector does not compile. */
const INSPECTORS: Record<FileKind, Inspector> = {
  pdf: async ({ path, displayName }) => {
    const pdf = await inspectPdf(path, displayName);
    return { ...pages(pdf.pages), needsOcr: pdf.needsOcr };
  },
  docx: async ({ path, displayName, limits }) => pages(await countDocxPages(path, displayName, limits)),
  pptx: async ({ path, displayName, limits }) => pages(await countSlides(path, displayName, limits)),
  xlsx: async ({ path, displayName, limits }) => pages(await countSheets(path, displayName, limits)),
  hwp: async ({ path, displayName, limits }) => {
    const file = HwpFile.open(path, displayName, limits);
    const count = countHwpPages(file);
    await file.checkStreams();
    return pages(count);
  },
  hwpx: async ({ path, displayName, limits }) => pages(await countHwpxPages(path, displayName, limits)),
  image: async ({ path, mime, displayName }) => ({
    pages: 0,
    images: await countImages(path, mime, displayName),
    durationSeconds: 0,
  }),
  audio: media,
  video: media,
  markdown: async () => pages(0),
  text: async ({ path, displayName }) => pages(await countTextPages(path, displayName)),
  html: async ({ path, displayName, htmlContent }) => {
    await assertNoEntityDeclarations(path, displayName);
    return pages(await countHtmlPages(path, displayName, htmlContent));
  },
  csv: table(),
  tsv: table('\t'),
  epub: async ({ path, displayName, limits }) => pages(await countEpubPages(path, displayName, limits)),
  ...viaLibreOfficeEntries(viaLibreOffice),
  eml: async ({ path, displayName }) => pages(await countEmailPages(path, 'eml', displayName)),
  msg: async ({ path, displayName }) => pages(await countEmailPages(path, 'msg', displayName)),
};

/**
 * Measures what is priced: pages, images, media seconds. Throws a DomainError on an unreadable
 * file, and a 413 on one whose compressed parts would expand past `limits`.
 */
export function inspect(
  path: string,
  kind: FileKind,
  mime: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
  htmlContent: HtmlContent = 'main',
): Promise<Inspection> {
  return INSPECTORS[kind]({ path, mime, displayName, limits, htmlContent });
}
