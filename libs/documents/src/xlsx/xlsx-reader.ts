import type { Block, Cell, Document, Inline, Provenance, TableBlock } from '@docconv/model';
import { plain } from '@docconv/model';
import { readPart, readRels, OfficeReadError } from '../office/ooxml';
import type { ZipReader } from '../zip/zip-reader';
import { blocksOf, range, type Area } from './cell-areas';
import { columnName, readSheet, type Grid } from './sheet-cells';
import { commentBlocks, drawingItems, type Anchored } from './sheet-drawings';
import { readWorkbook, type Workbook } from './workbook';

/**
 * An Excel workbook (XLSX or XLSM) as a document, read straight from its OOXML parts: one
 * level-2 heading per visible worksheet that holds something, then each block of cells (cells
 * set apart by empty rows or columns) as a table whose first row is the header, merged cells
 * as spans and values as Excel displays them, with the sheet's charts, pictures and text boxes
 * in their places, and its cell comments last. Every block says its sheet, and tables and
 * anchored content the cells they cover. Chart sheets and hidden sheets are left out.
 */
export async function readXlsxDocument(zip: ZipReader, file: string): Promise<Document> {
  const { book, sheets } = await readWorkbook(zip);
  const blocks: Block[] = [];
  for (const { name, part } of sheets) {
    const from: Provenance = { file, sheet: name };
    const body = await sheetBlocks(book, part, from);
    if (body.length > 0) blocks.push({ type: 'heading', level: 2, content: plain(name), from }, ...body);
  }
  return { version: 1, blocks };
}

/** A worksheet's blocks of cells, drawings and comments, in reading order. */
async function sheetBlocks(book: Workbook, part: string, sheet: Provenance): Promise<Block[]> {
  const xml = await readPart(book.zip, part);
  if (xml === undefined) throw new OfficeReadError(`${part} is missing`);
  const { grid, drawings } = readSheet(book, xml, part);
  const rels = await readRels(book.zip, part);

  const items: Anchored[] = blocksOf(grid).map((area) => ({
    row: area.top,
    col: area.left,
    blocks: areaBlocks(grid, area, sheet),
  }));
  for (const id of drawings) {
    const rel = rels.get(id);
    if (rel && !rel.external) items.push(...(await drawingItems(book.zip, rel.target, sheet)));
  }
  items.sort((a, b) => a.row - b.row || a.col - b.col);
  return [...items.flatMap((item) => item.blocks), ...(await commentBlocks(book.zip, rels, sheet))];
}

/** Largest number of empty cells a table may carry beyond four per filled one; sparser blocks become lists. */
const SPARSE_SLACK = 100_000;

/**
 * A block of cells as a table, or, when it is mostly empty (a few values scattered over a huge
 * range), as a list of its values by reference (`A1: value`), which a reader can take in.
 */
function areaBlocks(grid: Grid, area: Area & { filled: number }, sheet: Provenance): Block[] {
  const height = area.bottom - area.top + 1;
  const width = area.right - area.left + 1;
  if (height * width > 4 * area.filled + SPARSE_SLACK) return sparseList(grid, area, sheet);
  return [tableOf(grid, area, { ...sheet, cells: areaRef(area) })];
}

/** The values of a sparse block as list items, row by row, each from its cell. */
function sparseList(grid: Grid, area: Area, sheet: Provenance): Block[] {
  const items: Block[] = [];
  for (const r of [...grid.cells.keys()].sort((a, b) => a - b)) {
    if (r < area.top || r > area.bottom) continue;
    const line = grid.cells.get(r)!;
    for (const c of [...line.keys()].sort((a, b) => a - b)) {
      if (c < area.left || c > area.right) continue;
      const ref = `${columnName(c)}${r}`;
      items.push({
        type: 'list_item',
        depth: 0,
        content: plain(`${ref}: ${line.get(c)!}`),
        from: { ...sheet, cells: ref },
      });
    }
  }
  return items;
}

/**
 * A block of cells as a table: every slot of its range, empty ones as empty cells, a merged area
 * as one cell with its spans, cut where it would run past the block or into a cell placed before
 * it (a value under such a span joins the text of the cell over it, so none is lost). The first
 * row is the header.
 */
function tableOf(grid: Grid, area: Area, from: Provenance): TableBlock {
  const width = area.right - area.left + 1;
  const rows: Cell[][] = [];
  /** For each column of the block, the cell spanning over it and the last row (within the block) it reaches. */
  const cover = new Array<Cell | undefined>(width);
  const coveredTo = new Int32Array(width).fill(-1);
  for (const r of range(area.top, area.bottom)) {
    const line = grid.cells.get(r);
    const at = r - area.top;
    const row: Cell[] = [];
    for (let c = area.left; c <= area.right; c++) {
      const value = line?.get(c);
      const over = coveredTo[c - area.left] >= at ? cover[c - area.left] : undefined;
      if (over) {
        if (value !== undefined) over.content = joined(over.content, cellContent(value));
        continue;
      }
      const merge = value === undefined ? undefined : grid.merges.get(`${r}:${c}`);
      const rowspan = merge ? Math.min(merge.bottom, area.bottom) - r + 1 : 1;
      const widest = merge ? Math.min(merge.right, area.right) - c + 1 : 1;
      let colspan = 1;
      while (colspan < widest && coveredTo[c + colspan - area.left] < at) colspan++;
      const cell: Cell = { content: value === undefined ? [] : cellContent(value), rowspan, colspan };
      for (let k = c - area.left; k < c - area.left + colspan; k++) {
        cover[k] = cell;
        coveredTo[k] = at + rowspan - 1;
      }
      row.push(cell);
    }
    rows.push(row);
  }
  return { type: 'table', rows, headerRows: 1, from };
}

/** Two cells' content as one, a space between them. */
function joined(first: Inline[], second: Inline[]): Inline[] {
  if (first.length === 0 || second.length === 0) return [...first, ...second];
  return [...first, ...plain(' '), ...second];
}

/** A cell's displayed text as inline content: its lines joined by line breaks. */
function cellContent(text: string): Inline[] {
  // most cells are one line with nothing to trim: no split (a large sheet has hundreds of thousands)
  if (!/[\r\n]|^\s|\s$/.test(text)) return plain(text);
  return text
    .trim()
    .split(/\r\n?|\n/)
    .flatMap((line, i): Inline[] => (i === 0 ? plain(line) : [{ kind: 'break' }, ...plain(line)]));
}

/** The range an area covers, `A1:D20` (one cell: `A1`). */
function areaRef(area: Area): string {
  const first = `${columnName(area.left)}${area.top}`;
  const last = `${columnName(area.right)}${area.bottom}`;
  return first === last ? first : `${first}:${last}`;
}
