import type { Document } from '@docconv/model';
import { Workbook } from 'exceljs';
import { documentBlocks, type TableBlock } from './document-blocks';
import { withoutDroppedCharacters } from '@docconv/characters';
import { SheetNamer } from './sheet-names';
import { identifierColumns, tableTitles, typedRow, withFoundHeader } from './table-analysis';
import { columnNames, tableGrid } from './table-model';
import {
  addTextSheet,
  fitColumnWidths,
  fitRowHeights,
  freezeHeader,
  mergeRanges,
  writeBodyRow,
  writeCellFormatting,
  writeHeaderRows,
} from './workbook-parts';

export interface XlsxBasicOptions {
  title: string;
}

/** Name of the sheet holding the document outside its tables. */
export const TEXT_SHEET = 'Text';

/**
 * A workbook with every table (GFM or HTML) on its own sheet, named after its caption ("Table 3-1 …") or else
 * the nearest heading before it, with its header rows found (see `headerRowCount`), bold and frozen, and merged
 * cells where the table spanned them, and the cells' bold, italic, strike and code kept (see
 * `writeCellFormatting`); then a Text sheet with the rest of the document. Body cells are
 * typed as the document wrote them (numbers, percentages, money, dates, times — see `typedValue`), except in
 * columns of identifiers such as codes with leading zeros or phone numbers, which stay text.
 */
export async function renderXlsxBasic(document: Document, options: XlsxBasicOptions): Promise<Buffer> {
  const blocks = documentBlocks(document);
  const workbook = newWorkbook(options.title);
  const names = new SheetNamer();
  const textSheet = names.reserve(TEXT_SHEET);
  const titles = tableTitles(blocks);
  for (const block of blocks) {
    if (block.kind === 'table') addTableSheet(workbook, names.next(titles.get(block) ?? null), block);
  }
  addTextSheet(workbook, textSheet, blocks);
  return workbookBytes(workbook);
}

/**
 * The workbook's file. Rows are as tall as their wrapped text, and every sheet prints one page wide (landscape
 * past three columns), so a table printed or exported to PDF keeps its columns together.
 */
export async function workbookBytes(workbook: Workbook): Promise<Buffer> {
  for (const sheet of workbook.worksheets) {
    fitRowHeights(sheet);
    const wide = sheet.columnCount > 3;
    sheet.pageSetup = {
      ...sheet.pageSetup,
      fitToPage: true,
      fitToWidth: 1,
      fitToHeight: 0,
      orientation: wide ? 'landscape' : 'portrait',
    };
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** An empty workbook carrying the document title in its properties. */
export function newWorkbook(title: string): Workbook {
  const workbook = new Workbook();
  workbook.title = withoutDroppedCharacters(title);
  workbook.creator = 'docconv';
  workbook.created = new Date();
  return workbook;
}

function addTableSheet(workbook: Workbook, name: string, block: TableBlock): void {
  const table = withFoundHeader(block.table);
  const sheet = workbook.addWorksheet(name);
  const textColumns = identifierColumns(columnNames(table), table.rows);
  writeHeaderRows(sheet, table.header, 1);
  table.rows.forEach((row, index) => writeBodyRow(sheet, table.header.length + 1 + index, typedRow(row, textColumns)));
  writeCellFormatting(sheet, table, 1);
  mergeRanges(sheet, table.merges, 1);
  freezeHeader(sheet, table.header.length);
  fitColumnWidths(sheet, tableGrid(table));
}
