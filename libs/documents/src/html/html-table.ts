import { gridRows, withoutLines, type Inline, type PlacedCell } from '@docconv/model';
import type { HtmlBlock } from './html-blocks';
import { isElement, isUnseen, numberAttribute, type HtmlElement } from './html-dom';
import { isLayoutTable } from './layout-table';
import { isEmpty } from './html-inline';

/** Widest table grid kept (the HTML limit on one cell's colspan is 1000); cells past it join the last one kept. */
const MAX_COLUMNS = 1000;

/** A cell of a table: its content as lines of inline runs, and the blocks it was read from. */
export interface TableCell {
  content: Inline[];
  /** A header cell: a `th`, or a cell of the table's `thead`. */
  header: boolean;
  rowspan: number;
  colspan: number;
  blocks: HtmlBlock[];
}

/** A table cell placed on its grid, with what it holds. */
interface GridCell extends PlacedCell {
  content: Inline[];
  header: boolean;
  blocks: HtmlBlock[];
}

/**
 * A table's blocks: cells placed on the grid as HTML places them (row and column spans), each
 * cell's content as lines (`cellContent`). Rows and columns where no cell with text ends are
 * dropped, so a row that holds only cells continuing below folds into the next one and spacer
 * rows and columns vanish. A table left with one cell is layout, not data: its content's blocks
 * are given as they are, as are those of a table laying the page out (`isLayoutTable`; `pageBorders`:
 * the page's style sheets draw every table's grid). The caption's blocks go before the table.
 * `readCell` reads an element's blocks.
 */
export function readTable(
  element: HtmlElement,
  readCell: (cell: HtmlElement) => HtmlBlock[],
  pageBorders = false,
): HtmlBlock[] {
  const out: HtmlBlock[] = [];
  const { rows, head } = tableRows(element);
  const placed = placeCells(rows, head);
  const layout = isLayoutTable(element, rows.length, placed, pageBorders);
  const cells: GridCell[] = placed.map(({ elements, ...cell }) => {
    const blocks = elements.flatMap(readCell);
    return { ...cell, blocks, content: cellContent(blocks) };
  });
  const caption = element.childNodes.find((n): n is HtmlElement => isElement(n) && n.tagName === 'caption');
  if (caption && !isUnseen(caption)) out.push(...readCell(caption));
  if (layout) {
    for (const cell of cells) out.push(...cell.blocks);
    return out;
  }
  const withText = cells.filter((cell) => !isEmpty(cell.content) || innerTables(cell.blocks).length > 0);
  if (withText.length === 0) return out;
  const width = withText.reduce((w, c) => Math.max(w, c.col + c.colspan), 0);
  const keepRows = new Array<boolean>(rows.length).fill(false);
  const keepCols = new Array<boolean>(width).fill(false);
  for (const cell of withText) {
    keepRows[cell.row + cell.rowspan - 1] = true;
    keepCols[cell.col + cell.colspan - 1] = true;
  }
  const kept = withoutLines(withText, keepRows, keepCols) as GridCell[];
  const keptHeight = keepRows.filter(Boolean).length;
  const keptWidth = keepCols.filter(Boolean).length;
  if (keptHeight === 1 && keptWidth === 1) {
    for (const cell of kept) out.push(...cell.blocks);
    return out;
  }
  const grid = tableGrid(kept, keptHeight, keptWidth);
  out.push({ type: 'table', rows: grid, headerRows: headerRows(grid) });
  return out;
}

/**
 * The rows of a table from its cells on the grid (`gridRows`: empty slots filled, overlapping
 * spans cut), each cell keeping its content and blocks; cells that `gridRows` joins keep those of both.
 */
function tableGrid(cells: GridCell[], height: number, width: number): TableCell[][] {
  const keyed = cells.map((cell, i) => ({ ...cell, text: String(i) }));
  return gridRows(keyed, height, width).map((row) =>
    row.map(({ text: keys, rowspan, colspan }) => {
      const sources = keys === '' ? [] : keys.split(' ').map((key) => cells[Number(key)]);
      return {
        content: sources.flatMap((c, i) => (i === 0 ? c.content : [space(), ...c.content])),
        header: sources.length > 0 && sources.every((c) => c.header),
        rowspan,
        colspan,
        blocks: sources.flatMap((c) => c.blocks),
      };
    }),
  );
}

/**
 * Blocks as the lines of a table cell, one break between lines: paragraphs and headings as
 * their text, list items each on a line after a bullet or number, code as code runs line by
 * line. Lines that show nothing are left out. A table inside the cell is not in its lines: it
 * is one of the cell's blocks (`innerTables`), after its lines.
 */
export function cellContent(blocks: HtmlBlock[]): Inline[] {
  return joinLines(cellLines(blocks));
}

function cellLines(blocks: HtmlBlock[]): Inline[][] {
  const lines: Inline[][] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'paragraph':
      case 'heading':
        lines.push(...splitLines(block.content));
        break;
      case 'list':
        for (const item of block.items) {
          const [first, ...rest] = cellLines(item.blocks);
          if (first === undefined) continue;
          lines.push([{ kind: 'text', text: `${block.ordered ? `${item.number}.` : '•'} ` }, ...first], ...rest);
        }
        break;
      case 'quote':
        lines.push(...cellLines(block.blocks));
        break;
      case 'code':
        for (const line of block.text.split('\n')) {
          const text = line.replace(/[ \t\n\r\f]+/g, ' ').trim();
          if (text !== '') lines.push([{ kind: 'text', text, code: true }]);
        }
        break;
      case 'table':
      case 'rule':
        break;
    }
  }
  return lines.filter((line) => !isEmpty(line));
}

/** The tables among a cell's blocks, in its lists and quotations too (not those inside those tables). */
export function innerTables(blocks: HtmlBlock[]): Extract<HtmlBlock, { type: 'table' }>[] {
  return blocks.flatMap((block) => {
    switch (block.type) {
      case 'table':
        return [block];
      case 'list':
        return block.items.flatMap((item) => innerTables(item.blocks));
      case 'quote':
        return innerTables(block.blocks);
      default:
        return [];
    }
  });
}

/** Inline content cut at its breaks. */
function splitLines(content: Inline[]): Inline[][] {
  const lines: Inline[][] = [[]];
  for (const inline of content) {
    if (inline.kind === 'break') lines.push([]);
    else lines[lines.length - 1].push(inline);
  }
  return lines;
}

function joinLines(lines: Inline[][]): Inline[] {
  return lines.flatMap((line, i) => (i === 0 ? line : [{ kind: 'break' } as const, ...line]));
}

function space(): Inline {
  return { kind: 'text', text: ' ' };
}

/** How many leading rows hold header cells only (cells left empty aside). */
function headerRows(rows: TableCell[][]): number {
  const isHeader = (row: TableCell[]): boolean =>
    row.some((cell) => cell.header) && row.every((cell) => cell.header || isEmpty(cell.content));
  const first = rows.findIndex((row) => !isHeader(row));
  return first === -1 ? rows.length : first;
}

/** The rows of a table, its own only (not those of tables inside it): head first, foot last; `head` counts the head's. */
function tableRows(table: HtmlElement): { rows: HtmlElement[]; head: number } {
  const head: HtmlElement[] = [];
  const body: HtmlElement[] = [];
  const foot: HtmlElement[] = [];
  const rowsOf = (section: HtmlElement): HtmlElement[] =>
    section.childNodes.filter((n): n is HtmlElement => isElement(n) && n.tagName === 'tr' && !isUnseen(n));
  for (const child of table.childNodes) {
    if (!isElement(child) || isUnseen(child)) continue;
    if (child.tagName === 'thead') head.push(...rowsOf(child));
    else if (child.tagName === 'tbody') body.push(...rowsOf(child));
    else if (child.tagName === 'tfoot') foot.push(...rowsOf(child));
    else if (child.tagName === 'tr') body.push(child);
  }
  return { rows: [...head, ...body, ...foot], head: head.length };
}

/**
 * The cells of table rows on their grid, as HTML's table model places them: each cell in the
 * first column its row leaves free, spans clamped to the table (a rowspan of 0 reaching its end);
 * a `th`, or any cell of the first `head` rows, is a header cell.
 */
function placeCells(rows: HtmlElement[], head: number): (PlacedCell & { elements: HtmlElement[]; header: boolean })[] {
  const placed: (PlacedCell & { elements: HtmlElement[]; header: boolean })[] = [];
  const busyUntil: number[] = [];
  rows.forEach((tr, r) => {
    let col = 0;
    for (const cell of tr.childNodes) {
      if (!isElement(cell) || (cell.tagName !== 'td' && cell.tagName !== 'th') || isUnseen(cell)) continue;
      while ((busyUntil[col] ?? -1) >= r) col++;
      const last = placed.at(-1);
      if (col >= MAX_COLUMNS && last) {
        last.elements.push(cell);
        continue;
      }
      col = Math.min(col, MAX_COLUMNS - 1);
      const colspan = Math.max(1, Math.min(numberAttribute(cell, 'colspan') ?? 1, 1000, MAX_COLUMNS - col));
      const asked = numberAttribute(cell, 'rowspan') ?? 1;
      const rowspan = asked === 0 ? rows.length - r : Math.max(1, Math.min(asked, rows.length - r));
      const header = cell.tagName === 'th' || r < head;
      placed.push({ row: r, col, rowspan, colspan, text: '', elements: [cell], header });
      for (let k = col; k < col + colspan; k++) busyUntil[k] = r + rowspan - 1;
      col += colspan;
    }
  });
  return placed;
}
