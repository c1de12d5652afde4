import { gridRows, withoutLines, type Cell, type Inline, type PlacedCell } from '@docconv/model';
import type { Block, Table } from './model';

/**
 * A Hancom table as model rows, each cell's content given by `contentOf`; nothing when no cell
 * holds anything. Rows where no cell starts (the lines a merged cell runs across) are left out,
 * with the spans over them; the grid is laid out by the shared table rules.
 */
export function tableRows(table: Table, contentOf: (blocks: Block[]) => Inline[]): Cell[][] | undefined {
  if (table.rows === 0 || table.cols === 0) return undefined;
  // The shared rules place text: each cell's text is the key of its content, empty when it has none.
  const contents: Inline[][] = [];
  const cells: PlacedCell[] = table.cells.map((cell) => {
    const content = contentOf(cell.blocks);
    return {
      row: cell.row,
      col: cell.col,
      rowspan: cell.rowSpan,
      colspan: cell.colSpan,
      text: content.length === 0 ? '' : String(contents.push(content) - 1),
    };
  });
  if (contents.length === 0) return undefined;
  const starts = Array.from({ length: table.rows }, (_, r) => r === 0);
  for (const cell of cells) if (cell.row >= 0 && cell.row < table.rows) starts[cell.row] = true;
  const grid = gridRows(
    withoutLines(cells, starts, Array<boolean>(table.cols).fill(true)),
    starts.filter(Boolean).length,
    table.cols,
  );
  return grid.map((row) =>
    row.map((cell) => ({
      // Where cells land on one slot, their contents are joined with a space, as the keys are.
      content: cell.text
        .split(' ')
        .filter((key) => key !== '')
        .flatMap((key, i): Inline[] =>
          i === 0 ? contents[Number(key)] : [{ kind: 'text', text: ' ' }, ...contents[Number(key)]],
        ),
      rowspan: cell.rowspan,
      colspan: cell.colspan,
    })),
  );
}
