import { DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { extractDocx } from '../docx/extract-docx';
import { convertWithLibreOffice, type OfficeTarget } from '../libreoffice/libreoffice';
import { extractPptx } from '../pptx/extract-pptx';
import { extractXlsx } from '../xlsx/extract-xlsx';

/** The office formats read by converting them to OOXML with LibreOffice first. */
export type OfficeViaLibreOffice = 'odt' | 'ods' | 'odp' | 'doc' | 'xls' | 'ppt' | 'rtf';

/** The OOXML format each kind becomes: text documents DOCX, spreadsheets XLSX, presentations PPTX. */
const TARGETS: Record<OfficeViaLibreOffice, OfficeTarget> = {
  odt: 'docx',
  doc: 'docx',
  rtf: 'docx',
  ods: 'xlsx',
  xls: 'xlsx',
  odp: 'pptx',
  ppt: 'pptx',
};

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
  const converted = await convertWithLibreOffice(path, target, displayName, { extension: kind });
  try {
    return await readConverted(converted.path, target, displayName, limits);
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
      return extractXlsx(path, displayName, limits);
    case 'pptx':
      return extractPptx(path, displayName, limits);
  }
}
