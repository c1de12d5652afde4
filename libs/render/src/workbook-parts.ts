import type { CellValue, Font, Workbook, Worksheet } from 'exceljs';
import type { Block } from './document-blocks';
import type { InlineRun } from './markdown-tree';
import { formattedRuns, tableGrid, type CellRange, type Table } from './table-model';
import { displayWidth } from './text-width';
import type { TypedValue } from './typed-value';

/** Excel's limit on the characters of one cell. */
const MAX_CELL_LENGTH = 32_767;
const MIN_COLUMN_WIDTH = 8;
const MAX_COLUMN_WIDTH = 60;
const TEXT_COLUMN_WIDTH = 100;
const HEADER_FILL = 'FFD9E2F3';
const MONOSPACE = 'Consolas';

/** One line of the document outside its tables, as the Text sheet lists it. */
export interface DocumentLine {
  kind: 'heading' | 'paragraph' | 'listItem' | 'code';
  text: string;
  /** Bullet or number shown before a list item's text ("•", "3."), null otherwise. */
  marker: string | null;
  /** List nesting depth, 0 outside lists. */
  level: number;
}

/**
 * The document outside its tables, one line each: headings, paragraph lines (a paragraph of several lines,
 * such as a transcript, gives several), list items and code lines. Tables and rules are left out.
 */
export function documentLines(blocks: Block[]): DocumentLine[] {
  return blocks.flatMap((block): DocumentLine[] => {
    switch (block.kind) {
      case 'heading':
        return [{ kind: 'heading', text: block.text, marker: null, level: 0 }];
      case 'paragraph':
        return splitLines(block.text).map((text) => ({ kind: 'paragraph', text, marker: null, level: 0 }));
      case 'listItem': {
        const marker = block.ordered ? `${block.number}.` : '•';
        const text = block.text.replace(/\s*\n\s*/g, ' ');
        return [{ kind: 'listItem', text, marker, level: block.level }];
      }
      case 'code':
        return block.text.split('\n').map((text) => ({ kind: 'code', text, marker: null, level: 0 }));
      case 'table':
      case 'rule':
        return [];
    }
  });
}

function splitLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Adds the Text sheet: one row per document line, headings bold, list items indented, code in a monospace font. */
export function addTextSheet(workbook: Workbook, name: string, blocks: Block[]): Worksheet {
  const sheet = workbook.addWorksheet(name);
  sheet.getColumn(1).width = TEXT_COLUMN_WIDTH;
  for (const line of documentLines(blocks)) {
    const cell = sheet.addRow([cellText(line.marker ? `${line.marker} ${line.text}` : line.text)]).getCell(1);
    cell.alignment = { wrapText: true, vertical: 'top', indent: line.level > 0 ? line.level * 2 : undefined };
    if (line.kind === 'heading') cell.font = { bold: true };
    if (line.kind === 'code') cell.font = { name: MONOSPACE };
  }
  return sheet;
}

/** Text cut to what one cell can hold. */
export function cellText(text: string): string {
  return text.length > MAX_CELL_LENGTH ? text.slice(0, MAX_CELL_LENGTH) : text;
}

/** Writes header rows from `firstRow` on, bold on a light fill. */
export function writeHeaderRows(sheet: Worksheet, header: string[][], firstRow: number): void {
  header.forEach((values, index) => {
    const row = sheet.getRow(firstRow + index);
    values.forEach((text, c) => {
      const cell = row.getCell(c + 1);
      cell.value = cellText(text);
      cell.font = { bold: true };
      cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: HEADER_FILL } };
      cell.alignment = { vertical: 'top', wrapText: true };
    });
  });
}

/** Writes one body row: text as given, or typed values with their number formats. Empty text leaves the cell empty. */
export function writeBodyRow(sheet: Worksheet, rowNumber: number, values: (string | TypedValue)[]): void {
  const row = sheet.getRow(rowNumber);
  values.forEach((value, c) => {
    const typed: TypedValue = typeof value === 'string' ? { value } : value;
    if (typed.value === '') return;
    const cell = row.getCell(c + 1);
    cell.value = typeof typed.value === 'string' ? cellText(typed.value) : typed.value;
    if (typed.numFmt) cell.numFmt = typed.numFmt;
    cell.alignment = { vertical: 'top', wrapText: typeof typed.value === 'string' };
  });
}

/**
 * Writes the formatting of the table's cells over the values already in the sheet (its grid starting at sheet
 * row `firstRow`). A cell holding text whose runs are formatted differently becomes rich text, each run with its
 * bold, italic, strike or monospace font; a cell whose runs share a formatting — a bold total, typed as a number
 * as much as a bold word — gets it as the cell's font. Rich text is kept for text, since a number or date must
 * stay a value a formula can read. Header cells stay bold.
 */
export function writeCellFormatting(sheet: Worksheet, table: Table, firstRow: number): void {
  tableGrid(table).forEach((row, r) =>
    row.forEach((_, c) => {
      const runs = formattedRuns(table, r, c).filter((run) => run.text !== '');
      if (!runs.some(isFormatted)) return;
      const cell = sheet.getCell(firstRow + r, c + 1);
      const base: Partial<Font> = r < table.header.length ? { bold: true } : {};
      const text = typeof cell.value === 'string' ? cell.value : null;
      if (text !== null && !sameFont(runs) && text === runs.map((run) => run.text).join('')) {
        cell.value = { richText: runs.map((run) => ({ text: run.text, font: { ...base, ...runFont(run) } })) };
      } else {
        cell.font = { ...base, ...sharedFont(runs) };
      }
    }),
  );
}

function isFormatted(run: InlineRun): boolean {
  return run.bold || run.italic || run.strike || run.code;
}

function runFont(run: InlineRun): Partial<Font> {
  return {
    ...(run.bold ? { bold: true } : {}),
    ...(run.italic ? { italic: true } : {}),
    ...(run.strike ? { strike: true } : {}),
    ...(run.code ? { name: MONOSPACE } : {}),
  };
}

function sameFont(runs: InlineRun[]): boolean {
  return runs.every((run) => JSON.stringify(runFont(run)) === JSON.stringify(runFont(runs[0])));
}

/** The formatting every run has. */
function sharedFont(runs: InlineRun[]): Partial<Font> {
  const every = (test: (run: InlineRun) => boolean) => runs.every(test);
  return runFont({
    text: '',
    bold: every((run) => run.bold),
    italic: every((run) => run.italic),
    strike: every((run) => run.strike),
    code: every((run) => run.code),
    link: null,
  });
}

/** The text a cell shows, rich text joined; null for a value that is not text. */
function shownText(value: CellValue): string | null {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && 'richText' in value)
    return value.richText.map((part) => part.text).join('');
  return null;
}

/** Merges the ranges, whose rows count from the sheet row `firstRow`. */
export function mergeRanges(sheet: Worksheet, merges: CellRange[], firstRow: number): void {
  for (const range of merges) {
    sheet.mergeCells(firstRow + range.top, range.left + 1, firstRow + range.bottom, range.right + 1);
  }
}

/** Keeps the header rows in view while scrolling. */
export function freezeHeader(sheet: Worksheet, headerRows: number): void {
  if (headerRows > 0) sheet.views = [{ state: 'frozen', ySplit: headerRows }];
}

/** Points per line of wrapped text at the default 11-point font; Excel's tallest row. */
const LINE_HEIGHT_PT = 15;
const MAX_ROW_HEIGHT_PT = 409;
/** Column width Excel gives a column nobody sized, in characters. */
const DEFAULT_COLUMN_WIDTH = 8.43;

/**
 * Row heights for wrapped text: the lines the tallest cell of each row wraps to at its column's width. Spreadsheet
 * programs do not always measure rows when they open a file (LibreOffice does not), and a row left one line high
 * draws its wrapped text over the rows below it.
 */
export function fitRowHeights(sheet: Worksheet): void {
  sheet.eachRow((row) => {
    let lines = 1;
    row.eachCell((cell, column) => {
      const text = shownText(cell.value);
      if (text === null || !cell.alignment?.wrapText) return;
      const width = sheet.getColumn(column).width ?? DEFAULT_COLUMN_WIDTH;
      const wrapped = text
        .split('\n')
        .reduce((sum, line) => sum + Math.max(1, Math.ceil((displayWidth(line) * 1.1) / Math.max(1, width - 1))), 0);
      lines = Math.max(lines, wrapped);
    });
    if (lines > 1) row.height = Math.min(MAX_ROW_HEIGHT_PT, lines * LINE_HEIGHT_PT);
  });
}

/** Column widths from the longest line in each column (wide characters count double), within bounds. */
export function fitColumnWidths(sheet: Worksheet, grid: string[][]): void {
  const widths: number[] = [];
  for (const row of grid) {
    row.forEach((text, c) => {
      const longest = Math.max(0, ...text.split('\n').map(displayWidth));
      widths[c] = Math.max(widths[c] ?? 0, longest);
    });
  }
  widths.forEach((width, c) => {
    sheet.getColumn(c + 1).width = Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, width + 2));
  });
}
