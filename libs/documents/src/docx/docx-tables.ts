import { gridRows, withoutLines, type Cell, type Inline, type PlacedCell } from '@docconv/model';
import { joined, shows } from '@docconv/model';

/** A row of a Word table as read: the grid columns left empty before and after its cells, and whether it is a header row. */
export interface WordRow {
  before: number;
  after: number;
  header: boolean;
  cells: WordCell[];
}

/** A cell of a Word table as read: the grid columns it spans, whether it continues a merged cell, and its content on one line. */
export interface WordCell {
  span: number;
  merge?: 'vertical' | 'horizontal';
  content: Inline[];
}

/**
 * A Word table as model rows: cells placed on the grid with their spans, then the rows and
 * columns where no cell shows anything taken out (those are spacing, not content). Every row is
 * as wide as the widest. `headerRows` counts the leading rows Word repeats as the header.
 */
export function tableRows(rows: WordRow[]): { rows: Cell[][]; headerRows: number } {
  const { cells, contents, width } = placeCells(rows);
  const keepRows = Array<boolean>(rows.length).fill(false);
  const keepCols = Array<boolean>(width).fill(false);
  for (const cell of cells) {
    if (cell.text === '') continue;
    for (let r = cell.row; r < cell.row + cell.rowspan; r++) keepRows[r] = true;
    for (let c = cell.col; c < cell.col + cell.colspan; c++) keepCols[c] = true;
  }
  // The grid is laid out by the shared table rules on keys standing for each cell's content:
  // where a cell lands on one already placed, the keys are joined and so are the contents.
  const grid = gridRows(
    withoutLines(cells, keepRows, keepCols),
    keepRows.filter(Boolean).length,
    keepCols.filter(Boolean).length,
  );
  const header = rows.filter((_, r) => keepRows[r]).findIndex((row) => !row.header);
  return {
    rows: grid.map((row) =>
      row.map((cell) => ({
        content: joined(cell.text.split(' ').map((key) => (key === '' ? [] : contents[Number(key)]))),
        rowspan: cell.rowspan,
        colspan: cell.colspan,
      })),
    ),
    headerRows: grid.length === 0 ? 0 : header === -1 ? grid.length : header,
  };
}

/**
 * The cells of a Word table on its grid. A cell continuing a vertical merge makes the cell above
 * it a row taller, one continuing a horizontal merge makes the cell before it wider; their own
 * content is not shown, as in Word. A placed cell's text is the key of its content (empty when
 * it shows nothing).
 */
function placeCells(rows: WordRow[]): { cells: PlacedCell[]; contents: Inline[][]; width: number } {
  const cells: PlacedCell[] = [];
  const contents: Inline[][] = [];
  let above: (PlacedCell | undefined)[] = [];
  let width = 0;
  rows.forEach((row, r) => {
    const here: (PlacedCell | undefined)[] = [];
    let col = Math.min(row.before, 64);
    let previous: PlacedCell | undefined;
    for (const cell of row.cells) {
      const up = above[col];
      let target: PlacedCell;
      if (cell.merge === 'vertical' && up && up.row + up.rowspan === r) {
        up.rowspan++;
        target = up;
      } else if (cell.merge === 'horizontal' && previous?.row === r && previous.rowspan === 1) {
        previous.colspan += cell.span;
        target = previous;
      } else {
        const text = shows(cell.content) ? String(contents.push(cell.content) - 1) : '';
        target = { row: r, col, rowspan: 1, colspan: cell.span, text };
        cells.push(target);
      }
      for (let k = col; k < col + cell.span; k++) here[k] = target;
      col += cell.span;
      previous = target;
    }
    width = Math.max(width, col + Math.min(row.after, 64));
    above = here;
  });
  return { cells, contents, width };
}
