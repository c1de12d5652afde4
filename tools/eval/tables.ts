/**
 * Tables for the fidelity scorer: reading them out of GFM Markdown, HTML and docling's
 * DoclingDocument JSON into one shape. Comparing them lives in teds.ts (TEDS) and
 * table-scores.ts (the scores a reader sees); this module re-exports both.
 */
import { decodeEntities } from './metrics';

export * from './teds';
export * from './table-scores';

/** One cell where it starts; a spanning cell appears once, in its first row. */
export interface TableCell {
  text: string;
  rowspan: number;
  colspan: number;
  /** A heading cell: `<th>`, inside `<thead>`, a GFM header row, or a docling column/row header. */
  header: boolean;
}

/** Rows top to bottom, each with the cells that start in it, left to right. */
export interface Table {
  rows: TableCell[][];
}

// ---------------------------------------------------------------------------------------------
// GFM

const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Splits a GFM table row on unescaped pipes, dropping the optional outer ones. */
export function splitGfmRow(line: string): string[] {
  let body = line.trim();
  if (body.startsWith('|')) body = body.slice(1);
  if (body.endsWith('|') && !body.endsWith('\\|')) body = body.slice(0, -1);
  const cells: string[] = [];
  let current = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '\\' && body[i + 1] === '|') {
      current += '|';
      i++;
    } else if (ch === '|') {
      cells.push(current.trim());
      current = '';
    } else {
      current += ch;
    }
  }
  cells.push(current.trim());
  return cells;
}

/**
 * GFM tables: a row with pipes, a delimiter row with as many cells, then rows until a blank or
 * pipe-less line. Body rows are padded or cut to the header's width, as GFM renders them.
 * Tables inside fenced code blocks are not tables.
 */
export function parseGfmTables(markdown: string): Table[] {
  const lines = markdown.split(/\r?\n/);
  const tables: Table[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const opener = FENCE.exec(line);
    if (fence !== undefined) {
      if (opener && opener[1][0] === fence[0] && opener[1].length >= fence.length) fence = undefined;
      continue;
    }
    if (opener) {
      fence = opener[1];
      continue;
    }
    const delimiter = lines[i + 1];
    if (!line.includes('|') || delimiter === undefined || !delimiter.includes('|') || !DELIMITER_ROW.test(delimiter)) {
      continue;
    }
    const header = splitGfmRow(line);
    if (splitGfmRow(delimiter).length !== header.length) continue;
    const width = header.length;
    const rows: TableCell[][] = [header.map((text) => ({ text, rowspan: 1, colspan: 1, header: true }))];
    let j = i + 2;
    for (; j < lines.length && lines[j].trim() !== '' && lines[j].includes('|'); j++) {
      const cells = splitGfmRow(lines[j]).slice(0, width);
      while (cells.length < width) cells.push('');
      rows.push(cells.map((text) => ({ text, rowspan: 1, colspan: 1, header: false })));
    }
    tables.push({ rows });
    i = j - 1;
  }
  return tables;
}

// ---------------------------------------------------------------------------------------------
// HTML

const TOKEN = /<!--[\s\S]*?-->|<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>|<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b([^>]*)>/gi;
const BLOCK_TAGS = new Set(['p', 'div', 'li', 'ul', 'ol', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote']);

interface OpenTable {
  table: Table;
  row: TableCell[] | undefined;
  cell: { cell: TableCell; parts: string[] } | undefined;
  inHead: boolean;
}

function spanOf(attributes: string, name: string): number {
  const match = new RegExp(`\\b${name}\\s*=\\s*["']?\\s*(\\d+)`, 'i').exec(attributes);
  const value = match ? parseInt(match[1], 10) : 1;
  return Number.isFinite(value) && value >= 1 ? Math.min(value, 1000) : 1;
}

function cellText(parts: string[]): string {
  return decodeEntities(parts.join(''))
    .replace(/[ \t\r\f\v\u00a0]+/g, ' ')
    .replace(/ *\n[\n ]*/g, '\n')
    .trim();
}

/**
 * Every `<table>` in an HTML document (or in Markdown that embeds HTML), in the order they open.
 * Tolerant of what browsers tolerate: unclosed `<td>`/`<tr>`, cells outside a `<tr>`, stray
 * end tags. A nested table is a table of its own, and its text is also part of the cells that
 * hold it: a reader sees the inner table's words inside the outer cell.
 */
export function parseHtmlTables(html: string): Table[] {
  const tables: Table[] = [];
  const stack: OpenTable[] = [];
  const closeCell = (open: OpenTable): void => {
    if (!open.cell) return;
    open.cell.cell.text = cellText(open.cell.parts);
    open.cell = undefined;
  };
  const closeRow = (open: OpenTable): void => {
    closeCell(open);
    if (open.row) open.table.rows.push(open.row);
    open.row = undefined;
  };
  let last = 0;
  for (const match of html.matchAll(TOKEN)) {
    const top = stack[stack.length - 1];
    const text = html.slice(last, match.index);
    for (const open of stack) open.cell?.parts.push(text);
    last = match.index + match[0].length;
    const name = match[3]?.toLowerCase();
    if (!name) continue;
    const closing = match[2] === '/';
    if (name === 'table') {
      if (!closing) {
        top?.cell?.parts.push('\n');
        const open: OpenTable = { table: { rows: [] }, row: undefined, cell: undefined, inHead: false };
        tables.push(open.table);
        stack.push(open);
      } else if (top) {
        closeRow(top);
        stack.pop();
        stack[stack.length - 1]?.cell?.parts.push('\n');
      }
      continue;
    }
    if (!top) continue;
    // The cells holding this table keep its cells and rows apart, as a reader sees them.
    if (name === 'td' || name === 'th' || name === 'tr') {
      for (const open of stack.slice(0, -1)) open.cell?.parts.push(name === 'tr' ? '\n' : ' ');
    }
    if (name === 'tr') {
      closeRow(top);
      if (!closing) top.row = [];
    } else if (name === 'td' || name === 'th') {
      closeCell(top);
      if (!closing) {
        top.row ??= [];
        const attributes = match[4] ?? '';
        const cell: TableCell = {
          text: '',
          rowspan: spanOf(attributes, 'rowspan'),
          colspan: spanOf(attributes, 'colspan'),
          header: name === 'th' || top.inHead,
        };
        top.row.push(cell);
        top.cell = { cell, parts: [] };
      }
    } else if (name === 'thead' || name === 'tbody' || name === 'tfoot') {
      closeRow(top);
      top.inHead = name === 'thead' && !closing;
    } else if (name === 'br' || BLOCK_TAGS.has(name)) {
      for (const open of stack) open.cell?.parts.push('\n');
    }
  }
  for (const open of stack.reverse()) closeRow(open);
  return tables.filter((t) => t.rows.length > 0);
}

/** The visible text of an HTML document: no head, scripts, styles or tags; blocks on their own lines. */
export function htmlToText(html: string): string {
  const body = html.replace(/<head\b[\s\S]*?<\/head\s*>/i, '');
  return decodeEntities(
    body.replace(TOKEN, (_match: string, _skipped: string | undefined, _slash: string, name: string | undefined) => {
      if (!name) return ' ';
      const tag = name.toLowerCase();
      return tag === 'br' || tag === 'tr' || BLOCK_TAGS.has(tag) ? '\n' : tag === 'td' || tag === 'th' ? ' ' : '';
    }),
  )
    .replace(/[ \t\r\f\v\u00a0]+/g, ' ')
    .replace(/ *\n[\n ]*/g, '\n')
    .trim();
}

/** Tables of our own Markdown: GFM tables and HTML tables embedded in it. */
export function parseMarkdownTables(markdown: string): Table[] {
  return [...parseGfmTables(markdown), ...parseHtmlTables(markdown)];
}

// ---------------------------------------------------------------------------------------------
// docling JSON

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function whole(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * The tables of a DoclingDocument (`tables[].data`): from `table_cells` with their
 * start/end row and column offsets, or, when that is empty, from `grid` (where a spanning
 * cell repeats in every slot it covers and is kept once).
 */
export function parseDoclingTables(document: unknown): Table[] {
  const tables = record(document)?.tables;
  if (!Array.isArray(tables)) return [];
  const out: Table[] = [];
  for (const item of tables) {
    const data = record(record(item)?.data);
    if (!data) continue;
    let cells: unknown[] = Array.isArray(data.table_cells) ? data.table_cells : [];
    if (cells.length === 0 && Array.isArray(data.grid)) {
      cells = data.grid.flatMap((row: unknown) => (Array.isArray(row) ? (row as unknown[]) : []));
    }
    const anchored = new Map<string, { row: number; col: number; cell: TableCell }>();
    let numRows = whole(data.num_rows) ?? 0;
    for (const raw of cells) {
      const c = record(raw);
      if (!c) continue;
      const row = whole(c.start_row_offset_idx);
      const col = whole(c.start_col_offset_idx);
      if (row === undefined || col === undefined) continue;
      const endRow = whole(c.end_row_offset_idx) ?? row + 1;
      const endCol = whole(c.end_col_offset_idx) ?? col + 1;
      numRows = Math.max(numRows, row + 1);
      const key = `${row},${col}`;
      if (anchored.has(key)) continue;
      anchored.set(key, {
        row,
        col,
        cell: {
          text: typeof c.text === 'string' ? c.text.trim() : '',
          rowspan: Math.max(1, endRow - row),
          colspan: Math.max(1, endCol - col),
          header: c.column_header === true || c.row_header === true,
        },
      });
    }
    if (anchored.size === 0) continue;
    // `table_cells` leaves out empty cells; the grid has them, as the table shows them.
    let numCols = whole(data.num_cols) ?? 0;
    for (const { col, cell } of anchored.values()) numCols = Math.max(numCols, col + cell.colspan);
    const covered = Array.from({ length: numRows }, () => new Array<boolean>(numCols).fill(false));
    for (const { row, col, cell } of anchored.values()) {
      for (let r = row; r < Math.min(numRows, row + cell.rowspan); r++) {
        for (let c = col; c < Math.min(numCols, col + cell.colspan); c++) covered[r][c] = true;
      }
    }
    const rows: { col: number; cell: TableCell }[][] = Array.from({ length: numRows }, () => []);
    for (const { row, col, cell } of anchored.values()) rows[row].push({ col, cell });
    covered.forEach((slots, row) =>
      slots.forEach((taken, col) => {
        if (!taken) rows[row].push({ col, cell: { text: '', rowspan: 1, colspan: 1, header: false } });
      }),
    );
    out.push({ rows: rows.map((r) => r.sort((a, b) => a.col - b.col).map((x) => x.cell)) });
  }
  return out;
}
