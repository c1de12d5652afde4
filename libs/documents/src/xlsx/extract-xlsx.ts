import { writeMarkdown, type Document } from '@docconv/model';
import { DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { readOfficePackage } from '../office/ooxml';
import { readXlsxDocument } from './xlsx-reader';

export { formatNumber } from './number-format';

/**
 * The document of an Excel workbook (XLSX or XLSM; see `readXlsxDocument`), read within the
 * decompression limits. A file that is not a readable workbook is refused with a message that
 * says how to fix it.
 */
export async function readXlsx(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<Document> {
  return readOfficePackage(path, displayName, limits, { name: 'Excel', extension: 'xlsx' }, (zip) =>
    readXlsxDocument(zip, displayName),
  );
}

/** An Excel workbook as Markdown: the Markdown writer's of its document. */
export async function extractXlsx(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<string> {
  return writeMarkdown(await readXlsx(path, displayName, limits));
}
