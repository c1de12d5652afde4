import type { Document } from '@docconv/model';
import type { Row, Workbook, Worksheet } from 'exceljs';
import { documentBlocks, type Block } from './document-blocks';
import { TEXT_SHEET, newWorkbook, workbookBytes } from './render-xlsx-basic';
import { SheetNamer } from './sheet-names';
import { identifierColumns, tableTitles, typedRow, withFoundHeader } from './table-analysis';
import { columnNames, filledGrid, tableWidth, type Table } from './table-model';
import { checkTotals, columnLetter, type SheetRow, type TotalsCheck } from './table-totals';
import { typedValue, type TypedValue } from './typed-value';
import { addTextSheet, cellText, fitColumnWidths, freezeHeader, writeBodyRow, writeHeaderRows } from './workbook-parts';

/** Proposes, for each wanted column, the index of the table header that fills it (or null). */
export type ColumnMapper = (headers: string[], columns: string[]) => Promise<(number | null)[]>;

export interface XlsxAdvancedOptions {
  title: string;
  /** Columns of the extra Mapped sheet, in order; null for no Mapped sheet. */
  columns: string[] | null;
  /** Asked first for each distinct table header; the deterministic matching is used when it fails or answers nonsense. */
  mapColumns?: ColumnMapper;
}

/** The workbook, and what its check of printed totals found: one sentence per total its rows do not add up to. */
export interface AdvancedWorkbook {
  bytes: Buffer;
  mismatches: string[];
}

export const CONTENTS_SHEET = 'Contents';
export const MAPPED_SHEET = 'Mapped';

/**
 * A workbook for analysis, what XLSX Advanced adds to Basic:
 * - a Contents sheet first, linking every table sheet with its caption, size and the totals checked
 *   (on a document without tables it says so, and nothing is guessed from the prose);
 * - tables with the same columns joined on one sheet, and a table continued on the next page without its
 *   header (its first row is data of the same shape) joined to the table before it;
 * - one header row per sheet: multi-row headers flattened into named columns ("Sales Q1"), and a unit
 *   every cell of a column repeats ("12 kg") moved into its header ("Weight (kg)");
 * - body values typed, values of cells spanning rows repeated in each row, and each sheet an Excel table
 *   with filter buttons, frozen header and fitted widths;
 * - totals rows' figures written as `SUM` formulas when the rows above add up to them, and every total they
 *   do not add up to listed in `mismatches` (and on the Contents sheet);
 * - with `columns`, a Mapped sheet listing every table row under exactly those columns.
 *
 * Cells hold values only: no rich text and no bold or italic from the document. The sheets are for filtering,
 * sorting and formulas (merged cells are unmerged and their values repeated, headers flattened), where a
 * cell's formatting says nothing a value does; XLSX Basic is the workbook that keeps the document's look.
 */
export async function renderXlsxAdvanced(document: Document, options: XlsxAdvancedOptions): Promise<AdvancedWorkbook> {
  const blocks = documentBlocks(document);
  const groups = tableGroups(blocks);
  const columns = options.columns && options.columns.length > 0 ? options.columns : null;

  const workbook = newWorkbook(options.title);
  const names = new SheetNamer();
  const contents = workbook.addWorksheet(names.reserve(CONTENTS_SHEET));
  const mappedName = columns ? names.reserve(MAPPED_SHEET) : null;
  const textName = names.reserve(TEXT_SHEET);

  if (columns && mappedName) await addMappedSheet(workbook, mappedName, groups, columns, options.mapColumns);
  const written = groups.map((group, index) => addGroupSheet(workbook, names.next(group.title), group, index + 1));
  addTextSheet(workbook, textName, blocks);
  const mismatches = written.flatMap(mismatchSentences);
  fillContents(contents, written, textName);
  return { bytes: await workbookBytes(workbook), mismatches };
}

// ---- tables joined by columns -----------------------------------------------------------------

/** Tables sharing their columns, in document order, titled after the first of them. */
interface TableGroup {
  title: string | null;
  columns: string[];
  tables: Table[];
}

/**
 * Groups the document's tables by their normalised column names. A table without a header row of its own
 * whose width is that of the table just before it (nothing but text between them) continues that table.
 */
function tableGroups(blocks: Block[]): TableGroup[] {
  const titles = tableTitles(blocks);
  const groups = new Map<string, TableGroup>();
  let previous: TableGroup | null = null;
  for (const block of blocks) {
    if (block.kind !== 'table') continue;
    const table = withFoundHeader(block.table);
    if (tableWidth(table) === 0) continue;
    if (table.header.length === 0 && previous && previous.columns.length === tableWidth(table)) {
      previous.tables.push(table);
      continue;
    }
    const columns = uniqueNames(columnNames(table));
    const key = columns.map(normalizeHeader).join('\u0001');
    const group = groups.get(key) ?? { title: titles.get(block) ?? null, columns, tables: [] };
    group.tables.push(table);
    groups.set(key, group);
    previous = group;
  }
  return [...groups.values()];
}

/**
 * Header text reduced for comparison: Unicode-normalised, lower-case, letters and digits only
 * ("Unit Price (USD)" and "unit price usd" are the same header).
 */
export function normalizeHeader(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** Column names an Excel table accepts: none repeated (ignoring case), so a second "Sales" becomes "Sales (2)". */
function uniqueNames(names: string[]): string[] {
  const seen = new Set<string>();
  return names.map((name) => {
    let unique = name;
    for (let n = 2; seen.has(unique.toLowerCase()); n++) unique = `${name} (${n})`;
    seen.add(unique.toLowerCase());
    return unique;
  });
}

// ---- one sheet per group -----------------------------------------------------------------------

/** What a table sheet holds, for the Contents sheet. */
interface WrittenSheet {
  name: string;
  title: string | null;
  rows: number;
  columns: number;
  totals: TotalsCheck;
}

/**
 * One sheet per group: a single header row of the group's column names (units moved in), then the body rows
 * of every table in the group, typed, as an Excel table with filter buttons; totals rows get their formulas.
 */
function addGroupSheet(workbook: Workbook, name: string, group: TableGroup, number: number): WrittenSheet {
  const sheet = workbook.addWorksheet(name);
  const body = group.tables.flatMap((table) => filledGrid(table, false).slice(table.header.length));
  const units = columnUnits(body, group.columns);
  const header = group.columns.map((column, c) => (units[c] ? `${column} (${units[c]})` : column));
  const textColumns = identifierColumns(group.columns, body);
  const rows: SheetRow[] = body.map((cells, index) => ({
    sheetRow: index + 2,
    cells: typedRow(
      cells.map((text, c) => (units[c] ? withoutUnit(text, units[c]) : text)),
      textColumns,
    ),
  }));
  const totals = checkTotals(rows);
  const formulas = new Map(totals.formulas.map((total) => [`${total.row}:${total.column}`, total]));
  // The Excel table writes its rows into the cells again when the workbook is saved, so the formulas go in them.
  sheet.addTable({
    name: `Table${number}`,
    ref: 'A1',
    headerRow: true,
    style: { theme: 'TableStyleLight9', showRowStripes: true },
    columns: header.map((column) => ({ name: cellText(column), filterButton: true })),
    rows: rows.map((row) =>
      row.cells.map((cell, c) => {
        const total = formulas.get(`${row.sheetRow}:${c}`);
        return total ? { formula: total.formula, result: total.result } : tableCellValue(cell);
      }),
    ),
  });
  for (const row of rows) writeFormats(sheet, row);
  styleHeader(sheet.getRow(1), header.length);
  freezeHeader(sheet, 1);
  fitColumnWidths(sheet, [header, ...body]);
  return { name, title: group.title, rows: rows.length, columns: header.length, totals };
}

/** A value for the Excel table's own rows, cut to what a cell holds. */
function tableCellValue(cell: string | TypedValue): string | number | Date | null {
  const value = typeof cell === 'string' ? cell : cell.value;
  if (value === '') return null;
  return typeof value === 'string' ? cellText(value) : value;
}

/** The number formats and alignment of a row's cells, whose values the Excel table wrote. */
function writeFormats(sheet: Worksheet, row: SheetRow): void {
  row.cells.forEach((cell, c) => {
    const target = sheet.getCell(row.sheetRow, c + 1);
    if (typeof cell !== 'string' && cell.numFmt) target.numFmt = cell.numFmt;
    target.alignment = { vertical: 'top', wrapText: typeof cell === 'string' || typeof cell.value === 'string' };
  });
}

/** Bold, wrapped header cells over the Excel table's own header style. */
function styleHeader(row: Row, width: number): void {
  for (let c = 1; c <= width; c++) {
    const cell = row.getCell(c);
    cell.font = { bold: true };
    cell.alignment = { vertical: 'top', wrapText: true };
  }
}

// ---- units --------------------------------------------------------------------------------

/** A number followed by a unit of measure: "12 kg", "3.5m", "1,200 명", "40 °C". */
const WITH_UNIT = /^([-+\u2212]?\d[\d.,]*)\s*(%|°C|°F|[A-Za-zµ²³/]{1,6}|[가-힣]{1,2})$/u;
/** Share of a column's non-empty cells that must carry the same unit for it to move into the header. */
const UNIT_SHARE = 0.9;

/**
 * The unit each column's cells repeat, when nearly all of them are a number with the same unit that a
 * spreadsheet cannot hold typed (kg, km, 명, 개); money and percentages are typed with their symbols instead.
 */
function columnUnits(body: string[][], columns: string[]): (string | null)[] {
  return columns.map((column, c) => {
    const texts = body.map((row) => (row[c] ?? '').trim()).filter((text) => text !== '');
    if (texts.length === 0) return null;
    const units = texts.map((text) => WITH_UNIT.exec(text)?.[2] ?? null);
    const unit = units[0];
    if (!unit || unit === '%' || typeof typedValue(texts[0]).value !== 'string') return null;
    if (units.filter((candidate) => candidate === unit).length / texts.length < UNIT_SHARE) return null;
    return column.includes(unit) ? null : unit;
  });
}

function withoutUnit(text: string, unit: string): string {
  const match = WITH_UNIT.exec(text.trim());
  return match && match[2] === unit ? match[1] : text;
}

// ---- the Contents sheet -------------------------------------------------------------------

/** A first sheet linking every table sheet, or saying that the document has none. */
function fillContents(sheet: Worksheet, written: WrittenSheet[], textSheet: string): void {
  sheet.getColumn(1).width = 32;
  sheet.getColumn(2).width = 60;
  for (let c = 3; c <= 6; c++) sheet.getColumn(c).width = 12;
  if (written.length === 0) {
    sheet.addRow(['This document has no tables.']).font = { bold: true };
    sheet.addRow([`Its text is on the ${textSheet} sheet; no values were guessed from it.`]);
    return;
  }
  const header = ['Sheet', 'Table', 'Rows', 'Columns', 'Totals as formulas', 'Totals not matching'];
  writeHeaderRows(sheet, [header], 1);
  written.forEach((table, index) => {
    const row = sheet.getRow(index + 2);
    row.values = [
      { text: table.name, hyperlink: `#'${table.name.replace(/'/g, "''")}'!A1` },
      table.title ?? '',
      table.rows,
      table.columns,
      table.totals.formulas.length,
      table.totals.mismatches.length,
    ];
    row.getCell(1).font = { color: { argb: 'FF0563C1' }, underline: true };
  });
  freezeHeader(sheet, 1);
  const notes = written.flatMap(mismatchSentences);
  if (notes.length > 0) {
    sheet.addRow([]);
    sheet.addRow(['Totals the rows above them do not add up to']).font = { bold: true };
    for (const note of notes) sheet.addRow([note]);
  }
}

function mismatchSentences(table: WrittenSheet): string[] {
  return table.totals.mismatches.map(
    (mismatch) =>
      `Sheet '${table.name}' cell ${columnLetter(mismatch.column)}${mismatch.row}: the document prints ${mismatch.printed} ` +
      `as a total, but the rows above it add up to ${Number(mismatch.summed.toPrecision(12))}.`,
  );
}

/** A filter on the last header row over every column, down to the last row. */
function addAutoFilter(sheet: Worksheet, headerRow: number, lastRow: number, width: number): void {
  if (headerRow < 1 || width < 1) return;
  sheet.autoFilter = {
    from: { row: headerRow, column: 1 },
    to: { row: Math.max(headerRow, lastRow), column: width },
  };
}

// ---- the Mapped sheet -------------------------------------------------------------------------

/** Every table row under the wanted columns; a table none of whose headers match any column adds nothing. */
async function addMappedSheet(
  workbook: Workbook,
  name: string,
  groups: TableGroup[],
  columns: string[],
  mapColumns: ColumnMapper | undefined,
): Promise<void> {
  const sheet = workbook.addWorksheet(name);
  writeHeaderRows(sheet, [columns], 1);
  const written: string[][] = [columns];
  for (const group of groups) {
    const mapping = await resolveMapping(group.columns, columns, mapColumns);
    if (mapping.every((index) => index === null)) continue;
    for (const table of group.tables) {
      for (const row of filledGrid(table, false).slice(table.header.length)) {
        const values = mapping.map((index) => (index === null ? '' : row[index]));
        if (values.every((text) => text === '')) continue;
        writeBodyRow(sheet, written.length + 1, values.map(typedValue));
        written.push(values);
      }
    }
  }
  freezeHeader(sheet, 1);
  addAutoFilter(sheet, 1, written.length, columns.length);
  fitColumnWidths(sheet, written);
}

/**
 * The mapping from `mapColumns` when it gives one of the right shape (one entry per column, each null or
 * the index of a header). It is an outside helper that may fail, so any error or malformed answer falls
 * back to `matchColumns` rather than failing the whole workbook.
 */
export async function resolveMapping(
  headers: string[],
  columns: string[],
  mapColumns: ColumnMapper | undefined,
): Promise<(number | null)[]> {
  if (mapColumns) {
    try {
      const proposed: unknown = await mapColumns(headers, columns);
      if (isValidMapping(proposed, headers.length, columns.length)) return proposed;
    } catch {
      // Fall through to the deterministic matching below.
    }
  }
  return matchColumns(headers, columns);
}

function isValidMapping(value: unknown, headerCount: number, columnCount: number): value is (number | null)[] {
  return (
    Array.isArray(value) &&
    value.length === columnCount &&
    value.every((index) => index === null || (Number.isInteger(index) && index >= 0 && index < headerCount))
  );
}

/**
 * Matches each wanted column to a header, ignoring case, spacing and punctuation: exact matches first,
 * then a header containing the column name or contained in it (the closest in length wins). Each header
 * fills at most one column; columns without a match get null.
 */
export function matchColumns(headers: string[], columns: string[]): (number | null)[] {
  const headerKeys = headers.map(normalizeHeader);
  const columnKeys = columns.map(normalizeHeader);
  const used = new Set<number>();
  const mapping: (number | null)[] = columns.map(() => null);
  columnKeys.forEach((key, c) => {
    const index = headerKeys.findIndex((header, h) => key !== '' && header === key && !used.has(h));
    if (index >= 0) {
      mapping[c] = index;
      used.add(index);
    }
  });
  columnKeys.forEach((key, c) => {
    if (mapping[c] !== null || key === '') return;
    const best = closestContaining(key, headerKeys, used);
    if (best !== null) {
      mapping[c] = best;
      used.add(best);
    }
  });
  return mapping;
}

/** The unused header that contains `key` or is contained in it, closest to it in length. */
function closestContaining(key: string, headerKeys: string[], used: Set<number>): number | null {
  let best: number | null = null;
  for (let h = 0; h < headerKeys.length; h++) {
    const header = headerKeys[h];
    if (used.has(h) || header === '' || !(header.includes(key) || key.includes(header))) continue;
    const distance = Math.abs(header.length - key.length);
    if (best === null || distance < Math.abs(headerKeys[best].length - key.length)) best = h;
  }
  return best;
}
