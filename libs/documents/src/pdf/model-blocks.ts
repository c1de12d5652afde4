import { writeMarkdown, type Block, type Box, type Cell, type GridCell, type Inline } from '@docconv/model';
import type { Line, PageLines } from './layout';
import type { RuledTable } from './lattice';
import { unturnedBox } from './turn';

/**
 * The pieces the PDF layout builds model blocks from: line text as inline runs (footnote
 * references split out), a grid of cells as model cells, and where lines stand on their page.
 */

/** A footnote reference inside line text, until the text becomes inline runs (private-use characters clean PDF text never has). */
export const noteReference = (label: number): string => `\uE0F0${label}\uE0F1`;
const REFERENCE = /\uE0F0(\d+)\uE0F1/;

/** Plain line text as inline runs: text, with each footnote reference (noteReference) a note. */
export function inlines(text: string): Inline[] {
  const out: Inline[] = [];
  const parts = text.split(REFERENCE);
  for (const [i, part] of parts.entries()) {
    if (i % 2 === 1) out.push({ kind: 'note', label: part });
    else if (part !== '') out.push({ kind: 'text', text: part });
  }
  return out;
}

/** A cell's text (lines separated by `\n`) as inline runs, its lines joined by breaks. */
export function cellInlines(text: string): Inline[] {
  return text
    .trim()
    .split('\n')
    .flatMap((line, i): Inline[] => (i === 0 ? inlines(line) : [{ kind: 'break' }, ...inlines(line)]));
}

/** A grid of cells with plain text as model rows. */
export function modelRows(rows: GridCell[][]): Cell[][] {
  return rows.map((row) =>
    row.map((cell) => ({
      content: cellInlines(cell.text),
      rowspan: cell.rowspan,
      colspan: cell.colspan,
      ...(cell.box ? { box: cell.box } : {}),
    })),
  );
}

/**
 * Where a line stands on its page, `[left, top, right, bottom]` from the top-left in page units:
 * a block line from its top (`blockTop`, else `y`) to its `bottom` (else the page's foot); a line
 * of text a size above its baseline to a quarter size below.
 */
export function lineBox(line: Line, pageHeight: number): Box {
  return line.bottom !== undefined || line.block !== undefined
    ? [line.x, line.blockTop ?? line.y, line.right, line.bottom ?? pageHeight]
    : [line.x, line.y - line.size, line.right, line.y + line.size * 0.25];
}

/** The smallest box holding all of `boxes`. */
export function unionBox(boxes: Box[]): Box | undefined {
  if (boxes.length === 0) return undefined;
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}

/** What places a page's boxes in its original: its size in page units, its scale and its turn (see PageLines). */
export type PageFrame = Pick<PageLines, 'width' | 'height' | 'scale' | 'turn'>;

/** The size of a page in the original's units and frame (a sideways page read turned has its own width and height back). */
export function originalSize(page: PageFrame): { width: number; height: number } {
  const scale = page.scale ?? 1;
  const [width, height] = page.turn ? [page.height, page.width] : [page.width, page.height];
  return { width: round(width / scale), height: round(height / scale) };
}

/** A box in page units in the original's units (PDF points, image pixels) and frame, within the page. */
export function originalBox(box: Box, page: PageFrame): Box {
  const scale = page.scale ?? 1;
  const { width, height } = originalSize(page);
  const own = page.turn ? unturnedBox(box, page.turn, page.width, page.height) : box;
  const limits = [width, height, width, height];
  return own.map((v, i) => Math.min(limits[i], round(Math.max(0, v / scale)))) as Box;
}

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * A line standing for model blocks (a ruled table, a figure, an OCR'd page's paragraphs): the
 * blocks it carries (their provenance is given when the page is laid out), and as `block` their
 * Markdown, which is what the other passes over lines read of it.
 */
export function blockLine(line: Omit<Line, 'block' | 'blocks'>, blocks: Block[]): Line {
  return { ...line, blocks, block: writeMarkdown({ version: 1, blocks }).trimEnd() };
}

/** Provenance not known yet: the layout gives each block its file, page and box. */
export const UNPLACED = { file: '' } as const;

/** Ruled tables take their place among a page's lines, by their top edge. */
export function withTables(lines: Line[], tables: RuledTable[]): Line[] {
  if (tables.length === 0) return lines;
  return [...lines, ...tables.map(tableLine)].sort((a, b) => a.y - b.y);
}

/** A ruled table as the block line that stands for it among a page's lines, at its top edge. */
export function tableLine(table: RuledTable): Line {
  return blockLine(
    {
      text: table.rows.flatMap((row) => row.map((cell) => cell.text)).join(' '),
      x: table.left,
      right: table.right,
      y: table.top,
      size: table.size,
      rtl: false,
      runs: [],
      bold: false,
      bottom: table.bottom,
    },
    [{ type: 'table', rows: modelRows(table.rows), headerRows: 1, from: UNPLACED }],
  );
}
