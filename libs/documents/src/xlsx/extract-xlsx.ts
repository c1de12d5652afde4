import { writeMarkdown, type Document } from '@docconv/model';
import { DecompressionBudget, DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { unreadable } from '../office/ooxml';
import { withZip } from '../zip/zip-reader';
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
  try {
    return await withZip(
      path,
      (zip) => readXlsxDocument(zip, displayName),
      new DecompressionBudget(displayName, limits),
    );
  } catch (error) {
    throw unreadable(error, displayName, 'Excel', 'Check that it opens in Excel, save it again as .xlsx');
  }
}

/** An Excel workbook as Markdown: the Markdown writer's of its document. */
export async function extractXlsx(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<string> {
  return writeMarkdown(await readXlsx(path, displayName, limits));
}
