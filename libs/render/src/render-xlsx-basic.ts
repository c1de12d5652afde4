import { Workbook } from 'exceljs';
import { documentBlocks, nearestHeadings, type TableBlock } from './document-blocks';
import { parseMarkdown, xmlSafe } from './markdown-tree';
import { SheetNamer } from './sheet-names';
import { tableGrid } from './table-model';
import {
  addTextSheet,
  fitColumnWidths,
  freezeHeader,
  mergeRanges,
  writeBodyRow,
  writeHeaderRows,
} from './workbook-parts';

export interface XlsxBasicOptions {
  title: string;
}

/** Name of the sheet holding the document outside its tables. */
export const TEXT_SHEET = 'Text';

/**
 * A workbook with every table (GFM or HTML) on its own sheet, named after the nearest heading before it,
 * with bold frozen header rows and merged cells where the HTML table spanned them; then a Text sheet with
 * the rest of the document. Every value is written as the text of the Markdown, without interpretation.
 */
export async function renderXlsxBasic(markdown: string, options: XlsxBasicOptions): Promise<Buffer> {
  const blocks = documentBlocks(parseMarkdown(markdown));
  const workbook = newWorkbook(options.title);
  const names = new SheetNamer();
  const textSheet = names.reserve(TEXT_SHEET);
  const headings = nearestHeadings(blocks);
  for (const block of blocks) {
    if (block.kind === 'table') addTableSheet(workbook, names.next(headings.get(block) ?? null), block);
  }
  addTextSheet(workbook, textSheet, blocks);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** An empty workbook carrying the document title in its properties. */
export function newWorkbook(title: string): Workbook {
  const workbook = new Workbook();
  workbook.title = xmlSafe(title);
  workbook.creator = 'docconv';
  workbook.created = new Date();
  return workbook;
}

function addTableSheet(workbook: Workbook, name: string, { table }: TableBlock): void {
  const sheet = workbook.addWorksheet(name);
  writeHeaderRows(sheet, table.header, 1);
  table.rows.forEach((row, index) => writeBodyRow(sheet, table.header.length + 1 + index, row));
  mergeRanges(sheet, table.merges, 1);
  freezeHeader(sheet, table.header.length);
  fitColumnWidths(sheet, tableGrid(table));
}
