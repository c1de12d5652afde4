import type { Box } from '../document';
import { inlineHtml } from './inline-html';

/** One cell of a table: its text, and how many rows and columns it covers. */
export interface GridCell {
  text: string;
  rowspan: number;
  colspan: number;
  /** Where the cell stands on its page (see Cell.box). */
  box?: Box;
  /** The rows of the tables nested in the cell, written inside it after its text. */
  tables?: GridCell[][][];
}

/** A cell placed on a table's grid: the row and column of its top-left slot, counted from 0. */
export interface PlacedCell extends GridCell {
  row: number;
  col: number;
}

/**
 * A table as Markdown: GFM when no cell spans or holds a table, otherwise an HTML table (GFM
 * has neither spans nor nested tables). Each row holds the cells anchored in it, left to right;
 * the slots a spanning cell covers are not repeated. A line break in a cell is written `<br>` in
 * both forms, since a GFM row is one line. A cell's text is inline Markdown; in the HTML form it
 * is written as HTML (CommonMark reads no Markdown inside an HTML block), so emphasis and links
 * still show, and the tables nested in the cell follow its text as HTML tables, at any depth.
 */
export function tableMarkdown(rows: GridCell[][]): string {
  if (rows.length === 0) return '';
  return isHtmlGrid(rows) ? htmlTable(rows) : gfmTable(rows);
}

/** Rows the table writer writes as HTML: a cell spans or holds a table. */
function isHtmlGrid(rows: readonly GridCell[][]): boolean {
  return rows.some((row) =>
    row.some((cell) => cell.rowspan > 1 || cell.colspan > 1 || (cell.tables !== undefined && cell.tables.length > 0)),
  );
}

/** An HTML table; the first row is the header. */
function htmlTable(rows: GridCell[][]): string {
  const cell = (c: GridCell, tag: string) =>
    `<${tag}${c.rowspan > 1 ? ` rowspan="${c.rowspan}"` : ''}${c.colspan > 1 ? ` colspan="${c.colspan}"` : ''}>${oneLine(c.text, inlineHtml)}${(c.tables ?? []).map(htmlTable).join('')}</${tag}>`;
  return [
    '<table>',
    ...rows.map((row, r) => `<tr>${row.map((c) => cell(c, r === 0 ? 'th' : 'td')).join('')}</tr>`),
    '</table>',
  ].join('\n');
}

function gfmTable(rows: GridCell[][]): string {
  const width = rows.reduce((widest, row) => Math.max(widest, row.length), 1);
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const line = (row: GridCell[]) =>
    `| ${Array.from({ length: width }, (_, i) => oneLine(row[i]?.text ?? '', escape)).join(' | ')} |`;
  return [line(rows[0]), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n');
}

/** A cell's text on one line: trimmed, each line escaped, line breaks written `<br>`. */
function oneLine(text: string, escape: (line: string) => string): string {
  if (!/[\r\n]/.test(text)) return escape(text.trim());
  return text.replace(/\r\n?/g, '\n').trim().split('\n').map(escape).join('<br>');
}

/**
 * The rows of a table of `height` rows and `width` columns from the cells placed on its grid.
 * A slot no cell covers becomes an empty cell, so every cell keeps its column. Spans are cut
 * at the grid's edges and where a cell would run into one placed before it; a cell whose
 * top-left slot is already covered adds its text to the cell covering it, so none is lost.
 * The work grows with the grid's slots, never with the sum of the areas the spans cover.
 */
export function gridRows(cells: PlacedCell[], height: number, width: number): GridCell[][] {
  const byRow: PlacedCell[][] = Array.from({ length: height }, () => []);
  for (const cell of cells)
    if (cell.row >= 0 && cell.row < height && cell.col >= 0 && cell.col < width) byRow[cell.row].push(cell);
  /** For each column, the cell over it and the last row that cell reaches. */
  const cover = new Array<GridCell | undefined>(width);
  const last = new Int32Array(width).fill(-1);
  const covered = (col: number, row: number) => last[col] >= row;
  const rows: GridCell[][] = [];
  for (let r = 0; r < height; r++) {
    const anchored = byRow[r].sort((a, b) => a.col - b.col);
    const row: GridCell[] = [];
    let next = 0;
    for (let c = 0; c < width; c++) {
      let cell = covered(c, r) ? cover[c] : undefined;
      const free = cell === undefined;
      for (; next < anchored.length && anchored[next].col === c; next++) {
        const source = anchored[next];
        if (cell) cell.text = joinText(cell.text, source.text);
        else cell = { text: source.text, rowspan: source.rowspan, colspan: source.colspan };
      }
      if (!free) continue;
      cell ??= { text: '', rowspan: 1, colspan: 1 };
      cell.rowspan = Math.max(1, Math.min(cell.rowspan, height - r));
      let colspan = 1;
      while (colspan < cell.colspan && c + colspan < width && !covered(c + colspan, r)) colspan++;
      cell.colspan = colspan;
      for (let k = c; k < c + colspan; k++) {
        cover[k] = cell;
        last[k] = r + cell.rowspan - 1;
      }
      row.push(cell);
    }
    rows.push(row);
  }
  return rows;
}

function joinText(first: string, second: string): string {
  return first !== '' && second !== '' ? `${first} ${second}` : first || second;
}

/**
 * The cells placed on a grid with some of its rows and columns taken out: each cell moves up and
 * left by the lines removed before it and loses the lines removed inside its spans; a cell left
 * with no row or no column is dropped.
 */
export function withoutLines(cells: PlacedCell[], keepRows: boolean[], keepCols: boolean[]): PlacedCell[] {
  const rowAt = kept(keepRows);
  const colAt = kept(keepCols);
  const out: PlacedCell[] = [];
  for (const cell of cells) {
    const rows = keptWithin(keepRows, rowAt, cell.row, cell.rowspan);
    const cols = keptWithin(keepCols, colAt, cell.col, cell.colspan);
    if (rows && cols) out.push({ ...cell, row: rows.first, rowspan: rows.count, col: cols.first, colspan: cols.count });
  }
  return out;
}

/** For each line, how many lines before it are kept: its index once the others are gone. */
function kept(keep: boolean[]): number[] {
  const at: number[] = [];
  let count = 0;
  for (const line of keep) {
    at.push(count);
    if (line) count++;
  }
  at.push(count);
  return at;
}

function keptWithin(
  keep: boolean[],
  at: number[],
  start: number,
  span: number,
): { first: number; count: number } | undefined {
  const end = Math.min(start + span, keep.length);
  if (start < 0 || start >= end) return undefined;
  const count = at[end] - at[start];
  return count > 0 ? { first: at[start], count } : undefined;
}
