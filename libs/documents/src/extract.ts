import { DomainError } from '@docconv/contracts';
import { readFile } from 'node:fs/promises';
import type { DecompressionLimits } from './decompression';
import { extractCsv } from './csv/extract-csv';
import { extractDocxWithImages } from './docx/extract-docx';
import { extractEmail } from './email/read-email';
import { extractEpub } from './epub/extract-epub';
import { extractHtml } from './html/extract-html';
import { extractHwp } from './hwp/extract-hwp';
import { extractHwpx } from './hwpx/extract-hwpx';
import { extractImage } from './image/extract-image';
import { extractViaLibreOffice } from './legacy/extract-legacy';
import type { Document } from '@docconv/model';
import type { PlacedPage } from './blocks/placement';
import type { ExtractedImage } from './images';
import type { FileKind } from './kinds';
import type { PageReport } from './ocr/ocr-page';
import { PageReader, type OcrOptions } from './ocr/page-reader';
import { extractPdf, readPdfPages, type PdfPages } from './pdf/extract-pdf';
import type { PageRange, StopSignal } from './page-loop';
import { extractPptx } from './pptx/extract-pptx';
import { extractText } from './text/extract-text';
import { extractXlsx } from './xlsx/extract-xlsx';

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
}

export interface Extraction {
  markdown: string;
  /** Per page or image frame: read from the text layer or by OCR, or failed (empty for other formats). */
  pages: PageReport[];
  /** Cancelled: `pages` covers the pages delivered until then, and `markdown` holds them. */
  stopped?: boolean;
  /** The pages or frames read when the cancel was seen that finished after it, not delivered (see readPageByPage). */
  dropped?: PageRange;
  /** The document the reader built, for readers ported to the model (PDF): `markdown` is its Markdown. */
  document?: Document;
  /** PDF pages and image frames with their lines placed, for the structured result. */
  placed?: PlacedPage[];
  /** Pictures the Markdown links (`![caption](images/p3-1.png)`), to store beside it. */
  images?: ExtractedImage[];
}

/**
 * One file to Markdown. `onProgress` receives how many of its pages (or frames) are done;
 * `shouldStop`, asked as the pages of a PDF or frames of an image are read, ends the file early (see readPageByPage).
 */
export function extractToMarkdown(
  input: ExtractInput,
  onProgress: (done: number) => void,
  shouldStop?: StopSignal,
): Promise<Extraction> {
  return withPageReader(input, (reader) => extract(input, onProgress, reader, shouldStop));
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

async function extract(
  input: ExtractInput,
  onProgress: (done: number) => void,
  reader: PageReader,
  shouldStop?: StopSignal,
): Promise<Extraction> {
  const text = async (markdown: Promise<string>): Promise<Extraction> => ({ markdown: await markdown, pages: [] });
  switch (input.kind) {
    case 'markdown':
      return text(readFile(input.path).then((b) => b.toString('utf8')));
    case 'pdf':
      return extractPdf(input.path, input.displayName, onProgress, reader, shouldStop, input.imagePrefix);
    case 'image':
      return extractImage(input.path, input.mime, input.units, input.displayName, onProgress, reader, shouldStop);
    case 'hwp':
      return text(extractHwp(input.path, input.displayName, input.limits));
    case 'hwpx':
      return text(extractHwpx(input.path, input.displayName, input.limits));
    case 'docx': {
      const { markdown, images } = await extractDocxWithImages(
        input.path,
        input.displayName,
        input.limits,
        input.imagePrefix,
      );
      return { markdown, pages: [], images };
    }
    case 'pptx':
      return text(extractPptx(input.path, input.displayName, input.limits));
    case 'xlsx':
      return text(extractXlsx(input.path, input.displayName, input.limits));
    case 'text':
      return text(extractText(input.path, input.displayName));
    case 'html':
      return text(extractHtml(input.path, input.displayName));
    case 'csv':
      return text(extractCsv(input.path, input.displayName));
    case 'tsv':
      return text(extractCsv(input.path, input.displayName, '\t'));
    case 'epub':
      return text(extractEpub(input.path, input.displayName, input.limits));
    case 'odt':
    case 'ods':
    case 'odp':
    case 'doc':
    case 'xls':
    case 'ppt':
    case 'rtf':
      return text(extractViaLibreOffice(input.path, input.kind, input.displayName, input.limits));
    case 'eml':
    case 'msg':
      return text(extractEmail(input.path, input.kind, input.displayName));
    case 'audio':
    case 'video':
      throw new DomainError(
        'transcription_unavailable',
        `${input.displayName}: transcription of ${input.kind} is not available on this worker. Ask for a refund.`,
      );
  }
}
