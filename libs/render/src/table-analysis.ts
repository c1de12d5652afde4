import type { Block, TableBlock } from './document-blocks';
import { tableGrid, type Table } from './table-model';
import { typedValue, type TypedValue } from './typed-value';

/**
 * A caption line: "Table 3-1 …", "Tab. 2: …", "표 1. …", "<표 2> …", "[표 3] …". The number is required, and
 * what follows it must not start in lower case, so a sentence about the table ("Table 3-1 summarizes …") is not one.
 */
const CAPTION =
  /^\s*[<〈[(]?\s*(?:[Tt]able|TABLE|[Tt]ab\.|[Tt]bl\.|표)\s*[\dIVX]+(?:[.\-–]\d+)*\s*[>〉\])]?\s*[.:]?(?:\s+(?!\p{Ll})|$)/u;

/** Longest paragraph taken as a caption. */
const MAX_CAPTION_LENGTH = 200;

/**
 * What to call each table: its caption (a "Table 3-1 …" line just before it, or just after it), otherwise the
 * last heading before it, otherwise null. A caption beats the heading because a section often holds several
 * tables, and the heading before a table can belong to text that came before it on the page.
 */
export function tableTitles(blocks: Block[]): Map<TableBlock, string | null> {
  const titles = new Map<TableBlock, string | null>();
  let heading: string | null = null;
  blocks.forEach((block, index) => {
    if (block.kind === 'heading') heading = block.text;
    if (block.kind !== 'table') return;
    titles.set(block, captionAt(blocks[index - 1]) ?? captionAt(blocks[index + 1]) ?? heading);
  });
  return titles;
}

function captionAt(block: Block | undefined): string | null {
  if (block?.kind !== 'paragraph' || block.text.length > MAX_CAPTION_LENGTH) return null;
  return CAPTION.test(block.text) ? block.text.replace(/\s+/g, ' ').trim() : null;
}

// ---- header rows ----------------------------------------------------------------------------

/** Most header rows a table is given, written or found. */
const MAX_HEADER_ROWS = 3;
/** Share of a column's body cells that must be values for it to count as a column of values. */
const VALUE_COLUMN_SHARE = 0.6;

type CellKind = 'empty' | 'value' | 'text';

function cellKind(text: string): CellKind {
  if (text.trim() === '') return 'empty';
  return typeof typedValue(text).value === 'string' ? 'text' : 'value';
}

/** A year written alone (a column heading "2024" over figures), which is a label, not a value of the column. */
function isYear(text: string): boolean {
  return /^(19|20)\d{2}$/.test(text.trim());
}

/**
 * How many leading rows of the grid are header rows. The written header is the start: an empty one counts for
 * nothing, and a one-row header whose cells are of the same kinds as the rows below it (text over text, values
 * over values, as in a table cut from a PDF whose first row is data) is data. Then body rows of labels that
 * stand over a column of values are added, up to three rows in all (a "Sales" row over "Q1 | Q2").
 */
export function headerRowCount(table: Table): number {
  const grid = tableGrid(table);
  let count = table.header.length;
  if (count === 1 && grid.length > 1 && looksLikeData(grid[0], grid.slice(1))) count = 0;
  while (
    count > 0 &&
    count < Math.min(MAX_HEADER_ROWS, grid.length - 1) &&
    isLabelRow(grid[count], columnsOfValues(grid.slice(count + 1)))
  ) {
    count++;
  }
  return count;
}

/** Whether a header row is really a data row: every column has the kind its body has, and some are values. */
function looksLikeData(row: string[], body: string[][]): boolean {
  if (row.every((text) => text.trim() === '')) return true;
  let values = 0;
  for (let c = 0; c < row.length; c++) {
    const kind = cellKind(row[c]);
    if (kind === 'empty') continue;
    if (kind === 'value' && isYear(row[c]) && !body.some((cells) => isYear(cells[c] ?? ''))) return false;
    if (kind !== majorityKind(body.map((cells) => cells[c] ?? ''))) return false;
    if (kind === 'value') values++;
  }
  return values > 0;
}

function majorityKind(texts: string[]): CellKind {
  const counts = { empty: 0, value: 0, text: 0 };
  for (const text of texts) counts[cellKind(text)]++;
  return counts.value >= counts.text ? (counts.value > 0 ? 'value' : 'empty') : 'text';
}

/** Columns most of whose non-empty cells are values. */
function columnsOfValues(rows: string[][]): Set<number> {
  const columns = new Set<number>();
  const width = Math.max(0, ...rows.map((row) => row.length));
  for (let c = 0; c < width; c++) {
    const kinds = rows.map((row) => cellKind(row[c] ?? '')).filter((kind) => kind !== 'empty');
    if (kinds.length > 0 && kinds.filter((kind) => kind === 'value').length / kinds.length >= VALUE_COLUMN_SHARE) {
      columns.add(c);
    }
  }
  return columns;
}

/** A row with no values that puts a label over at least one column of values. */
function isLabelRow(row: string[], valueColumns: Set<number>): boolean {
  if (row.some((text) => cellKind(text) === 'value' && !isYear(text))) return false;
  return [...valueColumns].some((c) => cellKind(row[c] ?? '') === 'text');
}

// ---- typed cells ----------------------------------------------------------------------------

/** Header words of columns whose numbers are identifiers, kept as text: codes, IDs, phone and account numbers. */
const IDENTIFIER_HEADER =
  /\b(?:code|id|ids|zip|postal|postcode|phone|tel|fax|isbn|issn|sku|account|serial|pin)\b|코드|전화|우편|계좌|주민|사업자|일련/iu;

/**
 * The columns whose cells must stay text although they read as numbers: a header naming identifiers (a code,
 * a phone number), or a body cell with a leading zero (`0012`), which says the column holds codes.
 */
export function identifierColumns(columnNames: string[], body: string[][]): Set<number> {
  const columns = new Set<number>();
  columnNames.forEach((name, c) => {
    if (IDENTIFIER_HEADER.test(name)) columns.add(c);
    if (body.some((row) => /^0\d+$/.test((row[c] ?? '').trim()))) columns.add(c);
  });
  return columns;
}

/** A body row's cells as spreadsheet values, leaving identifier columns as text. */
export function typedRow(row: string[], textColumns: Set<number>): (string | TypedValue)[] {
  return row.map((text, c) => (textColumns.has(c) ? text : typedValue(text)));
}

/**
 * The table as a spreadsheet should hold it: an empty written header row dropped, and the grid split again at
 * the header rows `headerRowCount` finds. Merges keep their places, since the grid's rows do not move.
 */
export function withFoundHeader(table: Table): Table {
  const grid = tableGrid(table);
  const emptyHeader = table.header.length === 1 && grid.length > 1 && grid[0].every((text) => text.trim() === '');
  const source: Table = emptyHeader
    ? {
        header: [],
        rows: grid.slice(1),
        merges: table.merges
          .filter((range) => range.top > 0)
          .map((range) => ({ ...range, top: range.top - 1, bottom: range.bottom - 1 })),
        runs: table.runs?.slice(1),
      }
    : table;
  const rows = tableGrid(source);
  const count = headerRowCount(source);
  return { header: rows.slice(0, count), rows: rows.slice(count), merges: source.merges, runs: source.runs };
}
