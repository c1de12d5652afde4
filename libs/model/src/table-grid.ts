import type { Cell } from './document';

/** A table's cell where it stands on the grid its spans make: the row and column of its top-left slot, from 0. */
export interface SlottedCell {
  cell: Cell;
  row: number;
  column: number;
}

/**
 * The cells of a table's rows on the grid their spans make, row by row: each cell takes the first
 * column of its row that no cell above reaches down over (as HTML lays out rows and spans).
 */
export function cellSlots(rows: readonly Cell[][]): SlottedCell[] {
  const out: SlottedCell[] = [];
  const taken = new Set<string>();
  for (const [r, row] of rows.entries()) {
    let column = 0;
    for (const cell of row) {
      while (taken.has(`${r}:${column}`)) column++;
      for (let dr = 0; dr < cell.rowspan; dr++) {
        for (let dc = 0; dc < cell.colspan; dc++) taken.add(`${r + dr}:${column + dc}`);
      }
      out.push({ cell, row: r, column });
      column += cell.colspan;
    }
  }
  return out;
}

/** How many columns a table's grid has (cellSlots): 0 for a table without cells. */
export function gridWidth(rows: readonly Cell[][]): number {
  return Math.max(0, ...cellSlots(rows).map(({ cell, column }) => column + cell.colspan));
}
