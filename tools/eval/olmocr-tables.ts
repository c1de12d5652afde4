/**
 * Tables as olmOCR-bench's `table` test sees them: laid out on their grid, with the neighbour
 * relations (up, down, left, right) between cells and, in GFM, the first row and column as headings.
 */
import { parseGfmTables, parseHtmlTables, type Table } from './tables';

export interface PlacedCell {
  text: string;
  header: boolean;
  row: number;
  col: number;
  rowspan: number;
  colspan: number;
}

/** A table laid out on its grid, with olmOCR-bench's neighbour relations between cells. */
export interface Layout {
  cells: PlacedCell[];
  up: Set<number>[];
  down: Set<number>[];
  left: Set<number>[];
  right: Set<number>[];
}

function layout(table: Table): Layout {
  const grid: number[][] = [];
  const cells: PlacedCell[] = [];
  table.rows.forEach((row, r) => {
    grid[r] ??= [];
    let c = 0;
    for (const cell of row) {
      while (grid[r][c] !== undefined) c++;
      const id = cells.length;
      cells.push({
        text: cell.text,
        header: cell.header,
        row: r,
        col: c,
        rowspan: cell.rowspan,
        colspan: cell.colspan,
      });
      for (let dr = 0; dr < cell.rowspan; dr++) {
        const target = (grid[r + dr] ??= []);
        for (let dc = 0; dc < cell.colspan; dc++) target[c + dc] = id;
      }
      c += cell.colspan;
    }
  });
  const height = grid.length;
  const width = grid.reduce((w, g) => Math.max(w, (g ?? []).length), 0);
  const at = (r: number, c: number): number | undefined => grid[r]?.[c];
  const relations = (): Set<number>[] => cells.map(() => new Set<number>());
  const up = relations();
  const down = relations();
  const left = relations();
  const right = relations();
  cells.forEach((cell, id) => {
    const lastRow = cell.row + cell.rowspan - 1;
    const lastCol = cell.col + cell.colspan - 1;
    /** Adds the first cell other than this one met walking from (r, c) by (dr, dc), if any. */
    const nearest = (set: Set<number>, r: number, c: number, dr: number, dc: number): void => {
      for (; r >= 0 && r < height && c >= 0 && c < width; r += dr, c += dc) {
        const other = at(r, c);
        if (other === undefined || other === id) continue;
        set.add(other);
        return;
      }
    };
    for (let r = cell.row; r <= lastRow; r++) {
      nearest(right[id], r, lastCol + 1, 0, 1);
      nearest(left[id], r, cell.col - 1, 0, -1);
    }
    for (let c = cell.col; c <= lastCol; c++) {
      nearest(down[id], lastRow + 1, c, 1, 0);
      nearest(up[id], cell.row - 1, c, -1, 0);
    }
  });
  return { cells, up, down, left, right };
}

/**
 * olmOCR-bench's heading walk: follow a relation (up for top headings, left for left headings)
 * as far as it goes; the heading cells met on the way, or if there are none the cells where
 * the walk ends.
 */
export function headingsOf(table: Layout, start: number, relation: Set<number>[]): number[] {
  const headings = new Set<number>();
  const ends = new Set<number>();
  const visited = new Set<number>();
  const pending = [start];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (visited.has(current)) continue;
    visited.add(current);
    if (table.cells[current].header) headings.add(current);
    if (relation[current].size === 0) ends.add(current);
    else pending.push(...relation[current]);
  }
  headings.delete(start);
  ends.delete(start);
  return [...(headings.size > 0 ? headings : ends)];
}

/** Tables of a Markdown text as olmOCR-bench sees them: in GFM the first row and column are headings. */
export function tablesForTests(markdown: string): Layout[] {
  const gfm = parseGfmTables(markdown).map((t) => ({
    rows: t.rows.map((row, r) => row.map((cell, c) => ({ ...cell, header: r === 0 || c === 0 }))),
  }));
  return [...gfm, ...parseHtmlTables(markdown)].map(layout);
}
