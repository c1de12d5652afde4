import { writeMarkdown, type Document } from '@docconv/model';
import { DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { extractDocxWithImages } from '../docx/extract-docx';
import type { ExtractedImage } from '../images';
import { convertWithLibreOffice, type OfficeTarget } from '../libreoffice/libreoffice';
import { readPptx } from '../pptx/extract-pptx';
import { readXlsx } from '../xlsx/extract-xlsx';

import type { OfficeViaLibreOffice } from '../formats';

/** The OOXML format each kind becomes: text documents DOCX, spreadsheets XLSX, presentations PPTX. */
const TARGETS = {
  odt: 'docx',
  doc: 'docx',
  rtf: 'docx',
  ods: 'xlsx',
  xls: 'xlsx',
  odp: 'pptx',
  ppt: 'pptx',
} as const satisfies Record<OfficeViaLibreOffice, OfficeTarget>;

/** A converted file's document, and the pictures taken out of it (a text document's, as DOCX's are). */
export interface ConvertedDocument {
  document: Document;
  images: ExtractedImage[];
}

/** The reader of each OOXML format LibreOffice converts to, building the document model. */
const READERS: Record<
  OfficeTarget,
  (path: string, displayName: string, limits: DecompressionLimits, imagePrefix?: string) => Promise<ConvertedDocument>
> = {
  docx: extractDocxWithImages,
  xlsx: async (path, displayName, limits) => ({ document: await readXlsx(path, displayName, limits), images: [] }),
  pptx: async (path, displayName, limits) => ({ document: await readPptx(path, displayName, limits), images: [] }),
};

/**
 * The document of an OpenDocument, legacy Office (97–2003) or RTF file: LibreOffice converts it
 * to DOCX, XLSX or PPTX (macros off, links never updated; see `convertWithLibreOffice`), and our
 * OOXML reader of that format builds the document. The converted file is read under the
 * original's display name and limits, and removed afterwards. With `imagePrefix`, a text
 * document's pictures are stored beside the result as a DOCX file's are.
 */
export async function readViaLibreOffice(
  path: string,
  kind: OfficeViaLibreOffice,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
  imagePrefix?: string,
): Promise<ConvertedDocument> {
  const converted = await convertWithLibreOffice(path, TARGETS[kind], displayName, { extension: kind });
  try {
    return await READERS[TARGETS[kind]](converted.path, displayName, limits, imagePrefix);
  } finally {
    await converted.dispose();
  }
}

/** The Markdown of such a file: its document written. */
export async function extractViaLibreOffice(
  path: string,
  kind: OfficeViaLibreOffice,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<string> {
  return writeMarkdown((await readViaLibreOffice(path, kind, displayName, limits)).document);
}
