import type { Workbook, Worksheet } from 'exceljs';
import { documentBlocks, nearestHeadings, type Block } from './document-blocks';
import { parseMarkdown } from './markdown-tree';
import { TEXT_SHEET, newWorkbook } from './render-xlsx-basic';
import { SheetNamer } from './sheet-names';
import { columnNames, filledGrid, gridSlice, tableGrid, type Table } from './table-model';
import { typedValue } from './typed-value';
import {
  addTextSheet,
  documentLines,
  fitColumnWidths,
  freezeHeader,
  mergeRanges,
  writeBodyRow,
  writeHeaderRows,
} from './workbook-parts';

/** Proposes, for each wanted column, the index of the table header that fills it (or null). */
export type ColumnMapper = (headers: string[], columns: string[]) => Promise<(number | null)[]>;

export interface XlsxAdvancedOptions {
  title: string;
  /** Columns of the extra Mapped sheet, in order; null for no Mapped sheet. */
  columns: string[] | null;
  /** Asked first for each distinct table header; the deterministic matching is used when it fails or answers nonsense. */
  mapColumns?: ColumnMapper;
}

export const MAPPED_SHEET = 'Mapped';
export const FIELDS_SHEET = 'Fields';

/** Longest label a "Label: value" line may have to count as a field. */
const MAX_LABEL_LENGTH = 40;

/**
 * A workbook for analysis. Tables with the same header (ignoring case, spacing and punctuation) are merged
 * into one sheet even when other content separates them (a table continued over several pages), with the
 * header written once; body values are typed (numbers, percentages, money, dates — see `typedValue`);
 * each table sheet has an autofilter, a frozen header and column widths fitted to its content.
 * With `columns`, a first Mapped sheet lists every table row under exactly those columns. "Label: value"
 * lines outside tables go to a Fields sheet, and the rest of the document to a Text sheet.
 */
export async function renderXlsxAdvanced(markdown: string, options: XlsxAdvancedOptions): Promise<Buffer> {
  const blocks = documentBlocks(parseMarkdown(markdown));
  const groups = tableGroups(blocks);
  const fields = labelledFields(blocks);
  const columns = options.columns && options.columns.length > 0 ? options.columns : null;

  const workbook = newWorkbook(options.title);
  const names = new SheetNamer();
  const mappedName = columns ? names.reserve(MAPPED_SHEET) : null;
  const fieldsName = fields.length > 0 ? names.reserve(FIELDS_SHEET) : null;
  const textName = names.reserve(TEXT_SHEET);

  if (columns && mappedName) await addMappedSheet(workbook, mappedName, groups, columns, options.mapColumns);
  for (const group of groups) addGroupSheet(workbook, names.next(group.heading), group);
  if (fieldsName) addFieldsSheet(workbook, fieldsName, fields);
  addTextSheet(workbook, textName, blocks);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// ---- tables merged by header -----------------------------------------------------------------

/** Tables sharing one header, in document order, named after the heading before the first of them. */
interface TableGroup {
  heading: string | null;
  columns: string[];
  tables: Table[];
}

/** Groups the document's tables by their normalised column names. */
function tableGroups(blocks: Block[]): TableGroup[] {
  const headings = nearestHeadings(blocks);
  const groups = new Map<string, TableGroup>();
  for (const block of blocks) {
    if (block.kind !== 'table') continue;
    const columns = columnNames(block.table);
    const key = columns.map(normalizeHeader).join('\u0001');
    const group = groups.get(key);
    if (group) group.tables.push(block.table);
    else groups.set(key, { heading: headings.get(block) ?? null, columns, tables: [block.table] });
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

/** One sheet per group: the first table's header rows once, then the body rows of every table in the group. */
function addGroupSheet(workbook: Workbook, name: string, group: TableGroup): void {
  const sheet = workbook.addWorksheet(name);
  const [first] = group.tables;
  const headerRows = first.header.length;
  const header = gridSlice(first, 0, headerRows);
  writeHeaderRows(sheet, header.grid, 1);
  mergeRanges(sheet, header.merges, 1);
  let nextRow = headerRows + 1;
  for (const table of group.tables) {
    const body = gridSlice(table, table.header.length, tableGrid(table).length);
    body.grid.forEach((row, index) => writeBodyRow(sheet, nextRow + index, row.map(typedValue)));
    mergeRanges(sheet, body.merges, nextRow);
    nextRow += body.grid.length;
  }
  freezeHeader(sheet, headerRows);
  addAutoFilter(sheet, headerRows, nextRow - 1, group.columns.length);
  fitColumnWidths(sheet, [...header.grid, ...group.tables.flatMap((table) => table.rows)]);
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

// ---- the Fields sheet -------------------------------------------------------------------------

export interface LabelledField {
  label: string;
  value: string;
}

/** "Label: value" with a colon followed by a space (or a full-width colon), so times such as 10:30 never split. */
const FIELD_LINE = /^([^:：]+?)\s*(?::\s+|：\s*)(\S.*)$/u;

/**
 * "Label: value" lines of paragraphs and list items (not headings, code or tables), whose label is at most
 * 40 characters and has a letter in it.
 */
export function labelledFields(blocks: Block[]): LabelledField[] {
  return documentLines(blocks).flatMap((line) => {
    if (line.kind !== 'paragraph' && line.kind !== 'listItem') return [];
    const match = FIELD_LINE.exec(line.text);
    if (!match) return [];
    const label = match[1].trim();
    const value = match[2].trim();
    if (label.length > MAX_LABEL_LENGTH || !/\p{L}/u.test(label)) return [];
    return [{ label, value }];
  });
}

function addFieldsSheet(workbook: Workbook, name: string, fields: LabelledField[]): void {
  const sheet = workbook.addWorksheet(name);
  writeHeaderRows(sheet, [['Field', 'Value']], 1);
  fields.forEach((field, index) => writeBodyRow(sheet, index + 2, [field.label, typedValue(field.value)]));
  freezeHeader(sheet, 1);
  addAutoFilter(sheet, 1, fields.length + 1, 2);
  fitColumnWidths(sheet, [['Field', 'Value'], ...fields.map((field) => [field.label, field.value])]);
}
