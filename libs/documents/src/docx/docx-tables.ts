import {
  gridRows,
  withoutLines,
  type Block,
  type Cell,
  type Inline,
  type PlacedCell,
  type Provenance,
} from '@docconv/model';
import { cellLines, modelBlocks, type DocxBlock } from './docx-blocks';
import { nested } from './docx-markup';
import { attr, child, intVal, onOff, type XmlElement } from './xml-tree';
import { joined, shows } from '@docconv/model';

/** A row of a Word table as read: the grid columns left empty before and after its cells, and whether it is a header row. */
interface WordRow {
  before: number;
  after: number;
  header: boolean;
  cells: WordCell[];
}

/** A cell of a Word table as read: the grid columns it spans, whether it continues a merged cell, its lines and the tables it holds. */
interface WordCell {
  span: number;
  merge?: 'vertical' | 'horizontal';
  content: Inline[];
  blocks: Block[];
}

/**
 * A Word table's blocks: the table on its grid, each cell's paragraphs as its lines and the
 * tables in it as its blocks (the Markdown writes those as an HTML table inside the cell), then
 * the charts its cells hold. A table of one cell is a frame drawn around its content: that
 * content as it is. `readCell` reads a cell's blocks; `from` is the file they come from.
 */
export function readWordTable(
  tbl: XmlElement,
  readCell: (tc: XmlElement) => DocxBlock[],
  from: Provenance,
): DocxBlock[] {
  const rows: WordRow[] = [];
  const cellBlocks: DocxBlock[][] = [];
  for (const tr of nested(tbl, 'w:tr')) {
    const trPr = child(tr, 'w:trPr');
    const cells: WordCell[] = [];
    for (const tc of nested(tr, 'w:tc')) {
      const tcPr = child(tc, 'w:tcPr');
      const vMerge = child(tcPr, 'w:vMerge');
      const hMerge = child(tcPr, 'w:hMerge');
      const blocks = readCell(tc);
      cellBlocks.push(blocks);
      cells.push({
        span: Math.min(64, Math.max(1, intVal(tcPr, 'w:gridSpan') ?? 1)),
        merge:
          vMerge && attr(vMerge, 'w:val') !== 'restart'
            ? 'vertical'
            : hMerge && attr(hMerge, 'w:val') !== 'restart'
              ? 'horizontal'
              : undefined,
        content: cellLines(blocks),
        blocks: modelBlocks(
          blocks.filter((b) => b.type === 'table'),
          from,
        ),
      });
    }
    rows.push({
      before: intVal(trPr, 'w:gridBefore') ?? 0,
      after: intVal(trPr, 'w:gridAfter') ?? 0,
      header: onOff(trPr, 'w:tblHeader') ?? false,
      cells,
    });
  }
  if (rows.length === 1 && rows[0].cells.length === 1) return cellBlocks[0];
  const charts = cellBlocks.flat().filter((b) => b.type === 'chart');
  const table = tableRows(rows);
  return table.rows.length === 0 ? charts : [{ type: 'table', ...table }, ...charts];
}

/**
 * A Word table as model rows: cells placed on the grid with their spans, then the rows and
 * columns where no cell shows anything taken out (those are spacing, not content). Every row is
 * as wide as the widest. `headerRows` counts the leading rows Word repeats as the header.
 */
function tableRows(rows: WordRow[]): { rows: Cell[][]; headerRows: number } {
  const { cells, contents, nested, width } = placeCells(rows);
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
      row.map((cell): Cell => {
        const keys = cell.text.split(' ').flatMap((key) => (key === '' ? [] : [Number(key)]));
        const blocks = keys.flatMap((key) => nested[key]);
        return {
          content: joined(keys.map((key) => contents[key])),
          rowspan: cell.rowspan,
          colspan: cell.colspan,
          ...(blocks.length > 0 ? { blocks } : {}),
        };
      }),
    ),
    headerRows: grid.length === 0 ? 0 : header === -1 ? grid.length : header,
  };
}

/**
 * The cells of a Word table on its grid. A cell continuing a vertical merge makes the cell above
 * it a row taller, one continuing a horizontal merge makes the cell before it wider; their own
 * content is not shown, as in Word. A placed cell's text is the key of its content and nested
 * tables (empty when it shows nothing).
 */
function placeCells(rows: WordRow[]): { cells: PlacedCell[]; contents: Inline[][]; nested: Block[][]; width: number } {
  const cells: PlacedCell[] = [];
  const contents: Inline[][] = [];
  const nested: Block[][] = [];
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
        let text = '';
        if (shows(cell.content) || cell.blocks.length > 0) {
          text = String(contents.length);
          contents.push(cell.content);
          nested.push(cell.blocks);
        }
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
  return { cells, contents, nested, width };
}
