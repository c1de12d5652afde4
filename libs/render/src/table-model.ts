import type { HtmlTable } from './html-tables';
import { inlineMarkdownText, runsText } from '@docconv/model';
import type { InlineRun } from './markdown-tree';

/** A rectangle of merged cells, 0-based and inclusive, counting header rows first and then body rows. */
export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/**
 * A table as every renderer sees it, whether the model or raw HTML gave it: a rectangular grid of header rows
 * and body rows. A merged cell keeps its text in its top-left position, the positions it covers hold ''
 * and the merge is listed in `merges` (so spreadsheets can merge them and documents can span them).
 *
 * The grid holds each cell's plain text, which is what the analyses read (header rows, typed values, totals,
 * widths); `runs` holds the formatting the document gave the cell, by the same grid position. A step that
 * rewrites a cell's text (a unit moved into its header, a cut to fit a slide) leaves `runs` as it was:
 * `formattedRuns` gives a cell's runs only while their text is still the cell's, its plain text otherwise.
 */
export interface Table {
  header: string[][];
  rows: string[][];
  merges: CellRange[];
  /** Each cell's runs by grid position (header rows first); absent when the table has no formatting to keep. */
  runs?: InlineRun[][][];
}

/** A cell as a document writes it: its runs and the rows and columns it spans. */
export interface SpanningCell {
  runs: InlineRun[];
  rowspan: number;
  colspan: number;
}

/**
 * Cells laid out on a grid the way browsers do it: each cell takes the first free position of its row, and its
 * rowspan/colspan reserve positions below and to the right (a rowspan past the last row is cut). The first
 * `headerRows` rows are the header.
 */
export function tableFromCells(cells: SpanningCell[][], headerRows: number): Table {
  const rowCount = cells.length;
  const grid: InlineRun[][][] = cells.map(() => []);
  const taken: boolean[][] = cells.map(() => []);
  const merges: CellRange[] = [];
  cells.forEach((row, r) => {
    let c = 0;
    for (const cell of row) {
      while (taken[r][c]) c++;
      const bottom = Math.min(r + cell.rowspan, rowCount) - 1;
      const right = c + cell.colspan - 1;
      for (let y = r; y <= bottom; y++) for (let x = c; x <= right; x++) taken[y][x] = true;
      grid[r][c] = cell.runs;
      if (bottom > r || right > c) merges.push({ top: r, left: c, bottom, right });
      c = right + 1;
    }
  });
  const width = Math.max(0, ...taken.map((row) => row.length));
  const runs = grid.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? []));
  const texts = runs.map((row) => row.map((cell) => runsText(cell)));
  const header = Math.min(headerRows, texts.length);
  const table: Table = { header: texts.slice(0, header), rows: texts.slice(header), merges };
  return runs.some((row) => row.some((cell) => cell.some(carriesMore))) ? { ...table, runs } : table;
}

/** Whether a run says more than its text: formatting, a link or a picture. */
function carriesMore(run: InlineRun): boolean {
  return run.bold || run.italic || run.strike || run.code || run.link !== null || run.image !== undefined;
}

/**
 * An HTML table (raw HTML the document kept): inline Markdown written in its cells is read as text. The header
 * is the run of leading rows whose cells are all `<th>` (or inside `<thead>`); a table with no such row gets its
 * first row as header, as a GFM table would.
 */
export function tableFromHtml(html: HtmlTable): Table {
  const cells = html.rows.map((row) =>
    row.map((cell) => ({
      runs: plainRuns(inlineMarkdownText(cell.text)),
      rowspan: cell.rowspan,
      colspan: cell.colspan,
    })),
  );
  return tableFromCells(cells, Math.max(1, leadingHeaderRows(html)));
}

function plainRuns(text: string): InlineRun[] {
  return text === '' ? [] : [{ text, bold: false, italic: false, strike: false, code: false, link: null }];
}

function leadingHeaderRows(html: HtmlTable): number {
  let count = 0;
  for (const row of html.rows) {
    if (!row.every((cell) => cell.header)) break;
    count++;
  }
  return count;
}

/** The number of columns. */
export function tableWidth(table: Table): number {
  return (table.header[0] ?? table.rows[0] ?? []).length;
}

/** Header rows followed by body rows. */
export function tableGrid(table: Table): string[][] {
  return [...table.header, ...table.rows];
}

/**
 * The grid with each merged cell's text copied into the positions it covers, so every row carries its own
 * values: a region spanning three rows belongs to each of them. With `across` false the text is copied down
 * its first column only, since a body cell spanning columns (a "Total" label) is not a value of each column.
 */
export function filledGrid(table: Table, across = true): string[][] {
  const grid = tableGrid(table).map((row) => [...row]);
  for (const merge of table.merges) {
    const text = grid[merge.top][merge.left];
    const right = across ? merge.right : merge.left;
    for (let r = merge.top; r <= merge.bottom; r++) for (let c = merge.left; c <= right; c++) grid[r][c] = text;
  }
  return grid;
}

/**
 * One name per column: the distinct texts of its header rows joined with a space (a two-row header
 * "Sales" over "Q1" names the column "Sales Q1"), or "Column N" when the header is empty there.
 */
export function columnNames(table: Table): string[] {
  const header = filledGrid(table).slice(0, table.header.length);
  return Array.from({ length: tableWidth(table) }, (_, c) => {
    const parts = header.map((row) => row[c]).filter((text) => text !== '');
    const name = [...new Set(parts)].join(' ');
    return name || `Column ${c + 1}`;
  });
}

/**
 * The runs to write for the cell at grid position (`r`, `c`): the document's runs while their text is the
 * cell's text, else the text as one plain run (or none when it is empty).
 */
export function formattedRuns(table: Table, r: number, c: number): InlineRun[] {
  const row = r < table.header.length ? table.header[r] : table.rows[r - table.header.length];
  const text = row?.[c] ?? '';
  const runs = table.runs?.[r]?.[c];
  return runs !== undefined && runsText(runs) === text ? runs : plainRuns(text);
}

/** Where a grid position stands with respect to merges: the start of one, covered by one, or on its own. */
export type CellPlacement = { kind: 'single' } | { kind: 'start'; range: CellRange } | { kind: 'covered' };

/** Finds the placement of every grid position once, for renderers that write spans. */
export function cellPlacements(table: Table): CellPlacement[][] {
  const placements: CellPlacement[][] = tableGrid(table).map((row) => row.map(() => ({ kind: 'single' })));
  for (const range of table.merges) {
    for (let r = range.top; r <= range.bottom; r++)
      for (let c = range.left; c <= range.right; c++) placements[r][c] = { kind: 'covered' };
    placements[range.top][range.left] = { kind: 'start', range };
  }
  return placements;
}

/** A run of grid rows with the merges that reach into it, clipped to it and counted from its first row. */
export interface GridSlice {
  grid: string[][];
  merges: CellRange[];
  /** The runs of the slice's cells, as `Table.runs`. */
  runs?: InlineRun[][][];
}

/**
 * Rows `start` to `end` (exclusive) of the table's grid. A merge cut by the slice keeps only its part inside,
 * and when its top-left cell lies above the slice its text is repeated in the part's top-left cell, so a
 * slice never loses the value of a cell spanning into it.
 */
export function gridSlice(table: Table, start: number, end: number): GridSlice {
  const full = tableGrid(table);
  const grid = full.slice(start, end).map((row) => [...row]);
  const runs = table.runs?.slice(start, end).map((row) => [...row]);
  const merges: CellRange[] = [];
  for (const range of table.merges) {
    const top = Math.max(range.top, start);
    const bottom = Math.min(range.bottom, end - 1);
    if (top > bottom) continue;
    if (top !== range.top) {
      grid[top - start][range.left] = full[range.top][range.left];
      if (runs) runs[top - start][range.left] = table.runs?.[range.top]?.[range.left] ?? [];
    }
    if (bottom > top || range.right > range.left)
      merges.push({ top: top - start, left: range.left, bottom: bottom - start, right: range.right });
  }
  return { grid, merges, runs };
}
