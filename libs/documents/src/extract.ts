import { DomainError } from '@docconv/contracts';
import {
  MAX_READ_BACK_BYTES,
  readMarkdown,
  withPageFurniture,
  writeMarkdown,
  type Document,
  type PageFurniture,
} from '@docconv/model';
import { readFile } from 'node:fs/promises';
import type { DecompressionLimits } from './decompression';
import { extractCsv } from './csv/extract-csv';
import { extractDocxWithImages } from './docx/extract-docx';
import { extractEmail, type EmailKind } from './email/read-email';
import { extractEpub } from './epub/extract-epub';
import { extractHtml } from './html/extract-html';
import type { HtmlContent } from './html/main-content';
import { extractHwp } from './hwp/extract-hwp';
import { extractHwpx } from './hwpx/extract-hwpx';
import { extractImage } from './image/extract-image';
import { readViaLibreOffice } from './legacy/extract-legacy';
import type { PlacedPage } from './blocks/placement';
import type { ExtractedImage } from './images';
import { viaLibreOfficeEntries, type OfficeViaLibreOffice } from './formats';
import type { FileKind } from './kinds';
import type { PageReport } from './ocr/ocr-page';
import { PageReader, type OcrOptions } from './ocr/page-reader';
import { extractPdf, readPdfPages, type PdfPages } from './pdf/extract-pdf';
import { pageStretches, type PageMarkdown } from './pdf/settled-pages';
import type { PageRange, StopSignal } from './page-loop';
import { readPptx } from './pptx/extract-pptx';
import { extractText } from './text/extract-text';
import { readXlsx } from './xlsx/extract-xlsx';

export { assemblePdf, type PdfPages } from './pdf/extract-pdf';

export interface ExtractInput {
  path: string;
  kind: FileKind;
  mime: string;
  displayName: string;
  /** Pages (PDF) or frames (images) as intake counted them. */
  units: number;
  /** How pages without a text layer and images are read. */
  ocr: OcrOptions;
  /** How far the file's compressed parts may expand (the upload limits; the defaults when absent). */
  limits?: DecompressionLimits;
  /**
   * Where the file's pictures are linked from its Markdown: the folder and the file's part of
   * their names (`images/`, `images/f2-`). Absent: pictures are not taken out.
   */
  imagePrefix?: string;
  /** What the upload asked for page furniture: dropped when absent. */
  pageFurniture?: PageFurniture;
  /** What of a web page is read (the upload's `html_content`): `main` when absent. */
  htmlContent?: HtmlContent;
  /**
   * A PDF whose pages are read by OCR (seconds to minutes each): its pages are settled as they are
   * read and handed over one by one (see SettledPages), not only once the file is laid out.
   */
  settlePages?: boolean;
}

export interface Extraction {
  markdown: string;
  /** Per page or image frame: read from the text layer or by OCR, or failed (empty for other formats). */
  pages: PageReport[];
  /** Cancelled: `pages` covers the pages delivered until then, and `markdown` holds them. */
  stopped?: boolean;
  /** The pages or frames read when the cancel was seen that finished after it, not delivered (see readPageByPage). */
  dropped?: PageRange;
  /** PDF pages and image frames with their lines placed, for the structured result. */
  placed?: PlacedPage[];
  /** Pictures the Markdown links (`![caption](images/p3-1.png)`), to store beside it. */
  images?: ExtractedImage[];
  /**
   * PDF pages and image frames: each one's stretch of `markdown` (joined, they are `markdown`
   * exactly) and its blocks, the job's page furniture applied; what the job delivers page by page.
   */
  pageMarkdown?: PageMarkdown[];
  /**
   * The file's document, from a reader that builds the model: `markdown` is written from it.
   * Absent for a reader not yet ported: the document is then read back from `markdown`.
   */
  document?: Document;
}

/**
 * One file to Markdown. `onProgress` receives how many of its pages (or frames) are done;
 * `shouldStop`, asked as the pages of a PDF or frames of an image are read, ends the file early (see readPageByPage).
 */
export async function extractToMarkdown(
  input: ExtractInput,
  onProgress: (done: number) => void,
  shouldStop?: StopSignal,
  onPages?: (pages: PageMarkdown[]) => void,
): Promise<Extraction> {
  const read = await withPageReader(input, (pages) =>
    READERS[input.kind](input, onProgress, pages, shouldStop, onPages),
  );
  return withPageStretches(withPageFurnitureOf(read, input.pageFurniture ?? 'drop'));
}

/** A PDF's or image's reading with each page's stretch of its Markdown, when it has no settled pages yet. */
export function withPageStretches(extraction: Extraction): Extraction {
  if (extraction.pageMarkdown || !extraction.document || extraction.pages.length === 0) return extraction;
  const pageMarkdown = pageStretches(
    extraction.document,
    extraction.pages.map((report) => report.page),
  );
  // A reader's Markdown is its document's as written; a page cut that does not give it back is not offered.
  return pageMarkdown.map((page) => page.markdown).join('') === extraction.markdown
    ? { ...extraction, pageMarkdown }
    : extraction;
}

/**
 * A file's reading with its page furniture as the upload asked: dropped from its document and
 * placed pages, kept in its Markdown where it stands (the Markdown written again), or left for
 * the structured result alone.
 */
export function withPageFurnitureOf(extraction: Extraction, mode: PageFurniture): Extraction {
  // Pages settled as they were read had the job's furniture applied as they settled.
  if (extraction.pageMarkdown) return extraction;
  const placed = mode === 'drop' ? extraction.placed?.map((page) => ({ ...page, furniture: [] })) : extraction.placed;
  const document = extraction.document && withPageFurniture(extraction.document, mode);
  // Furniture the writer leaves out changes nothing it writes: only shown furniture is written anew.
  const markdown =
    document && mode === 'keep' && document !== extraction.document ? writeMarkdown(document) : extraction.markdown;
  return { ...extraction, markdown, ...(placed ? { placed } : {}), ...(document ? { document } : {}) };
}

/**
 * Pages `range` of a PDF read for a later `assemblePdf`, with the job's OCR engine for pages
 * without a usable text layer. `onProgress` receives how many of the range's pages are done.
 */
export function readPdfRange(
  input: ExtractInput,
  range: PageRange,
  onProgress: (done: number) => void,
  shouldStop?: StopSignal,
): Promise<PdfPages> {
  return withPageReader(input, (reader) =>
    readPdfPages(input.path, input.displayName, range, onProgress, reader, shouldStop, input.imagePrefix),
  );
}

/** Runs `read` with a page reader on the input's OCR options, closed (its engines stopped) afterwards. */
async function withPageReader<T>(input: ExtractInput, read: (reader: PageReader) => Promise<T>): Promise<T> {
  const reader = new PageReader(input.ocr);
  try {
    return await read(reader);
  } finally {
    await reader.close();
  }
}

/**
 * Reads one file of its kind. `pages` reads the pages of PDFs and the frames of images that
 * have no usable text layer; `onProgress` and `shouldStop` are as for `extractToMarkdown`.
 */
type Reader = (
  input: ExtractInput,
  onProgress: (done: number) => void,
  pages: PageReader,
  shouldStop?: StopSignal,
  onPages?: (pages: PageMarkdown[]) => void,
) => Promise<Extraction>;

/** A reader that builds the document model: its Markdown is the model's writer's. */
const modelled =
  (read: (input: ExtractInput) => Promise<Document>): Reader =>
  async (input) => {
    const document = await read(input);
    return { markdown: writeMarkdown(document), pages: [], document };
  };

/** An OpenDocument, legacy Office or RTF file: LibreOffice converts it, and the OOXML reader builds its document. */
const viaLibreOffice =
  (kind: OfficeViaLibreOffice): Reader =>
  async (input) => {
    const { document, images } = await readViaLibreOffice(
      input.path,
      kind,
      input.displayName,
      input.limits,
      input.imagePrefix,
    );
    return { markdown: writeMarkdown(document), pages: [], document, images };
  };

const email = (kind: EmailKind): Reader => modelled((input) => extractEmail(input.path, kind, input.displayName));

const notTranscribed: Reader = async (input) => {
  throw new DomainError(
    'transcription_unavailable',
    `${input.displayName}: transcription of ${input.kind} is not available on this worker. Ask for a refund.`,
  );
};

/**
 * The reader of each format of the table (formats.ts): a kind without one does not compile.
 * Recordings are transcribed by the speech pool, never read here.
 */
const READERS: Record<FileKind, Reader> = {
  pdf: (input, onProgress, pages, shouldStop, onPages) =>
    extractPdf(
      input.path,
      input.displayName,
      onProgress,
      pages,
      shouldStop,
      input.imagePrefix,
      input.settlePages && onPages ? { furniture: input.pageFurniture ?? 'drop', onPages } : undefined,
    ),
  image: (input, onProgress, pages, shouldStop) =>
    extractImage(input.path, input.mime, input.units, input.displayName, onProgress, pages, shouldStop),
  docx: async (input) => {
    const { markdown, document, images } = await extractDocxWithImages(
      input.path,
      input.displayName,
      input.limits,
      input.imagePrefix,
    );
    return { markdown, pages: [], images, document };
  },
  pptx: modelled((input) => readPptx(input.path, input.displayName, input.limits)),
  xlsx: modelled((input) => readXlsx(input.path, input.displayName, input.limits)),
  hwp: modelled((input) => extractHwp(input.path, input.displayName, input.limits)),
  hwpx: modelled((input) => extractHwpx(input.path, input.displayName, input.limits)),
  ...viaLibreOfficeEntries(viaLibreOffice),
  epub: modelled((input) => extractEpub(input.path, input.displayName, input.limits)),
  eml: email('eml'),
  msg: email('msg'),
  html: modelled((input) => extractHtml(input.path, input.displayName, input.htmlContent)),
  csv: modelled((input) => extractCsv(input.path, input.displayName)),
  tsv: modelled((input) => extractCsv(input.path, input.displayName, '\t')),
  text: modelled((input) => extractText(input.path, input.displayName)),
  markdown: async (input) => {
    const markdown = (await readFile(input.path)).toString('utf8');
    // A larger upload keeps its Markdown as it is: conversions read it back if they are asked for.
    if (markdown.length > MAX_READ_BACK_BYTES) return { markdown, pages: [] };
    const document = readMarkdown(markdown, input.displayName);
    return { markdown: writeMarkdown(document), pages: [], document };
  },
  audio: notTranscribed,
  video: notTranscribed,
};
