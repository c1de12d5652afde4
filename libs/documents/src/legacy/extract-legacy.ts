import { writeMarkdown, type Document } from '@docconv/model';
import { DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { extractDocx } from '../docx/extract-docx';
import { convertWithLibreOffice, type OfficeTarget } from '../libreoffice/libreoffice';
import { readPptx } from '../pptx/extract-pptx';
import { readXlsx } from '../xlsx/extract-xlsx';

/** The office formats read by converting them to OOXML with LibreOffice first. */
export type OfficeViaLibreOffice = 'odt' | 'ods' | 'odp' | 'doc' | 'xls' | 'ppt' | 'rtf';

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

/** The kinds LibreOffice turns into XLSX: spreadsheets, whose reader builds the document model. */
export type SpreadsheetViaLibreOffice = {
  [K in OfficeViaLibreOffice]: (typeof TARGETS)[K] extends 'xlsx' ? K : never;
}[OfficeViaLibreOffice];

/**
 * Markdown from an OpenDocument, legacy Office (97–2003) or RTF file: LibreOffice converts it
 * to DOCX, XLSX or PPTX (macros off, links never updated; see `convertWithLibreOffice`), and our
 * OOXML reader of that format writes the Markdown. The converted file is read under the
 * original's display name and limits, and removed afterwards.
 */
export async function extractViaLibreOffice(
  path: string,
  kind: OfficeViaLibreOffice,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<string> {
  const target = TARGETS[kind];
  return withConverted(path, kind, displayName, (converted) => readConverted(converted, target, displayName, limits));
}

/** The presentations LibreOffice converts to PPTX, whose reader builds the document model. */
export type PresentationViaLibreOffice = 'odp' | 'ppt';

/** An OpenDocument or legacy PowerPoint presentation as a document: converted to PPTX, then read by the PPTX reader. */
export function readPresentationViaLibreOffice(
  path: string,
  kind: PresentationViaLibreOffice,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<Document> {
  return withConverted(path, kind, displayName, (converted) => readPptx(converted, displayName, limits));
}

/**
 * The document of an OpenDocument or legacy Excel spreadsheet (ODS, XLS): LibreOffice converts
 * it to XLSX as above, and the XLSX reader builds its document under the original's display name.
 */
export async function readSpreadsheetViaLibreOffice(
  path: string,
  kind: SpreadsheetViaLibreOffice,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<Document> {
  return withConverted(path, kind, displayName, (converted) => readXlsx(converted, displayName, limits));
}

/** Converts the file to its kind's OOXML format, reads the converted file with `read`, then removes it. */
async function withConverted<T>(
  path: string,
  kind: OfficeViaLibreOffice,
  displayName: string,
  read: (converted: string) => Promise<T>,
): Promise<T> {
  const converted = await convertWithLibreOffice(path, TARGETS[kind], displayName, { extension: kind });
  try {
    return await read(converted.path);
  } finally {
    await converted.dispose();
  }
}

/** The OOXML reader of `target`, on the converted file. */
function readConverted(
  path: string,
  target: OfficeTarget,
  displayName: string,
  limits: DecompressionLimits,
): Promise<string> {
  switch (target) {
    case 'docx':
      return extractDocx(path, displayName, limits);
    case 'xlsx':
      return readXlsx(path, displayName, limits).then(writeMarkdown);
    case 'pptx':
      return readPptx(path, displayName, limits).then(writeMarkdown);
  }
}
