/**
 * Hancom Office's HTML export as a reference. Hancom writes a page as absolutely positioned
 * layout: pages `div.hpa`, body and caption containers `div.hcD` > `div.hcI`, one `div.hls` per
 * layout line with its `left:`/`top:` in millimetres relative to its positioned ancestors,
 * tables `div.htb` (inside a line when the table is treated as a character, inside a floating
 * group `div.htG` next to its caption otherwise) whose cells `div.hce` are boxes placed by
 * left/top/width/height, page numbers `div.hpN`. Its source order is not reading order: floating
 * objects come after the page's text. This module reads the export the way a reader sees the
 * pages: the text in visual order, and the tables as grids with spans.
 */
import { mapPrivateUse } from '@docconv/reading';
import { decodeEntities } from './metrics';
import type { Table, TableCell } from './tables';

/** Whether an HTML document is Hancom Office's positioned layout export. */
/**
 * A Hancom export as a reference, or nothing when `html` is not one. The export keeps Hancom's
 * private-use code points, which mean what Hancom's fonts draw there, so it is read through the
 * same table as the readers' output (`mapPrivateUse`).
 */
export function hancomReference(html: string): HancomReference | undefined {
  return isHancomExport(html) ? readHancomExport(mapPrivateUse(html)) : undefined;
}

export function isHancomExport(html: string): boolean {
  return /<div\b[^>]*\bclass\s*=\s*["']hpa\b/i.test(html) && /\bclass\s*=\s*["'](?:hls|hce)\b/i.test(html);
}

export interface HancomReference {
  /** The pages' text in visual order, one layout line (or one table cell line) per line. */
  text: string;
  /** Every table, nested ones included, in visual order (an outer table before the tables in its cells). */
  tables: Table[];
}

/**
 * The text and tables of a Hancom export as a reader sees the pages. Per page, every layout line
 * is placed at its absolute position (the sum of the `left`/`top` offsets of its positioned
 * ancestors) and the page's items are read top to bottom, and left to right among items whose
 * tops are within {@link ROW_TOLERANCE_MM} of each other. A table is one item at its own
 * position, read cell by cell (row-major), each cell's lines in visual order; a caption is read
 * where it is drawn. Page numbers (`hpN`) are page furniture and left out, as are pictures.
 * Whitespace in the HTML source that holds a line break is the export's indentation, not text.
 *
 * Each table's grid comes from the distinct edges of its cells' boxes (left, right, top,
 * bottom, merged within {@link EDGE_TOLERANCE_MM}): a cell's row and column are the edges its
 * top and left fall on, its spans the edges it reaches. Slots no cell covers become empty
 * cells. A cell's text is its own lines; a table nested in it is a table of its own.
 */
export function readHancomExport(html: string): HancomReference {
  const root = parseHtml(html);
  const lines: string[] = [];
  const tables: Table[] = [];
  for (const page of findAll(root, (el) => hasClass(el, 'hpa'))) {
    const items: Item[] = [];
    visitChildren(page, { x: 0, y: 0 }, items);
    for (const item of readingOrder(items)) {
      lines.push(...item.lines);
      if (item.kind === 'table') tables.push(...item.tables);
    }
  }
  return { text: lines.join('\n'), tables };
}

/** Tops this close (mm) are one row of the page, read left to right. */
export const ROW_TOLERANCE_MM = 1;
/** Cell edges this close (mm) are one grid line. */
export const EDGE_TOLERANCE_MM = 0.3;

// ---------------------------------------------------------------------------------------------
// A small HTML tree

interface Element {
  tag: string;
  classes: string[];
  style: Record<string, string>;
  children: (Element | string)[];
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'wbr']);
const TOKEN =
  /<!--[\s\S]*?-->|<!doctype[^>]*>|<(head|script|style|svg)\b[^>]*>[\s\S]*?<\/\1\s*>|<(\/?)([a-zA-Z][\w-]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attributes);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

function parseStyle(style: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const declaration of (style ?? '').split(';')) {
    const colon = declaration.indexOf(':');
    if (colon > 0) out[declaration.slice(0, colon).trim().toLowerCase()] = declaration.slice(colon + 1).trim();
  }
  return out;
}

/** A forgiving HTML tree: void elements, self-closing tags and stray or missing end tags are tolerated. */
function parseHtml(html: string): Element {
  const root: Element = { tag: '#root', classes: [], style: {}, children: [] };
  const stack: Element[] = [root];
  let last = 0;
  for (const match of html.matchAll(TOKEN)) {
    const top = stack[stack.length - 1];
    if (match.index > last) top.children.push(html.slice(last, match.index));
    last = match.index + match[0].length;
    const name = match[3]?.toLowerCase();
    if (!name) continue;
    if (match[2] === '/') {
      const at = stack.map((el) => el.tag).lastIndexOf(name);
      if (at > 0) stack.length = at;
      continue;
    }
    const attributes = match[4] ?? '';
    const element: Element = {
      tag: name,
      classes: (attribute(attributes, 'class') ?? '').split(/\s+/).filter(Boolean),
      style: parseStyle(attribute(attributes, 'style')),
      children: [],
    };
    top.children.push(element);
    if (!VOID.has(name) && !/\/\s*$/.test(attributes)) stack.push(element);
  }
  if (last < html.length) stack[stack.length - 1].children.push(html.slice(last));
  return root;
}

function hasClass(el: Element, name: string): boolean {
  return el.classes.includes(name);
}

/** Outermost elements matching `test`, in document order. */
function findAll(el: Element, test: (el: Element) => boolean): Element[] {
  const found: Element[] = [];
  for (const child of el.children) {
    if (typeof child === 'string') continue;
    if (test(child)) found.push(child);
    else found.push(...findAll(child, test));
  }
  return found;
}

const MM_PER: Record<string, number> = { mm: 1, cm: 10, in: 25.4, pt: 25.4 / 72, px: 25.4 / 96 };

/** A CSS length in millimetres; 0 when absent or unreadable. */
function length(value: string | undefined): number {
  const match = /^(-?\d*\.?\d+)\s*(mm|cm|in|pt|px)?$/i.exec(value?.trim() ?? '');
  return match ? parseFloat(match[1]) * MM_PER[(match[2] ?? 'px').toLowerCase()] : 0;
}

// ---------------------------------------------------------------------------------------------
// Layout

interface Point {
  x: number;
  y: number;
}

interface Item {
  kind: 'line' | 'table';
  at: Point;
  /** What a reader reads of it, line by line. */
  lines: string[];
  /** For a table: it and the tables nested in its cells. */
  tables: Table[];
}

/** Containers of lines and tables: never part of the text of the line they sit in. */
const BLOCKS = ['hls', 'htb', 'htG', 'hcD', 'hcI', 'hce', 'hpN', 'hpa'];

function offset(el: Element, origin: Point): Point {
  return { x: origin.x + length(el.style.left), y: origin.y + length(el.style.top) };
}

function visitChildren(el: Element, at: Point, items: Item[]): void {
  for (const child of el.children) if (typeof child !== 'string') visit(child, at, items);
}

function visit(el: Element, origin: Point, items: Item[]): void {
  if (hasClass(el, 'hpN')) return;
  const at = offset(el, origin);
  if (hasClass(el, 'htb')) {
    items.push(readTable(el, at));
    return;
  }
  if (hasClass(el, 'hls')) {
    const parts: string[] = [];
    inline(el, at, parts, items);
    const text = cleanText(parts.join(''));
    if (text) items.push({ kind: 'line', at, lines: [text], tables: [] });
    return;
  }
  visitChildren(el, at, items);
}

/** The text of a line in source order; tables and other containers inside it are items of their own. */
function inline(el: Element, at: Point, parts: string[], items: Item[]): void {
  for (const child of el.children) {
    if (typeof child === 'string') {
      if (!/^\s*$/.test(child) || !/[\r\n]/.test(child)) parts.push(child);
    } else if (BLOCKS.some((name) => hasClass(child, name))) {
      visit(child, at, items);
    } else if (child.tag === 'br') {
      parts.push(' ');
    } else {
      inline(child, offset(child, at), parts, items);
    }
  }
}

function cleanText(text: string): string {
  return decodeEntities(text)
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();
}

/** Items top to bottom; items whose tops are within the row tolerance of a row's first item, left to right. */
function readingOrder(items: Item[]): Item[] {
  const sorted = [...items].sort((a, b) => a.at.y - b.at.y || a.at.x - b.at.x);
  const out: Item[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i + 1;
    while (j < sorted.length && sorted[j].at.y - sorted[i].at.y <= ROW_TOLERANCE_MM) j++;
    out.push(...sorted.slice(i, j).sort((a, b) => a.at.x - b.at.x));
    i = j;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tables

interface PlacedCell {
  left: number;
  top: number;
  right: number;
  bottom: number;
  /** The cell's own lines in visual order: its text in the table. */
  text: string;
  /** Everything a reader reads in the cell, nested tables included. */
  lines: string[];
  nested: Table[];
}

/** The `hce` cells of a table, not those of tables nested in them. */
function cellsOf(el: Element): Element[] {
  return findAll(el, (child) => hasClass(child, 'hce') || hasClass(child, 'htb')).filter((c) => hasClass(c, 'hce'));
}

function readTable(el: Element, at: Point): Item {
  const placed: PlacedCell[] = cellsOf(el).map((cell) => {
    const left = length(cell.style.left);
    const top = length(cell.style.top);
    const items: Item[] = [];
    visitChildren(cell, offset(cell, at), items);
    const ordered = readingOrder(items);
    return {
      left,
      top,
      right: left + length(cell.style.width),
      bottom: top + length(cell.style.height),
      text: ordered
        .filter((item) => item.kind === 'line')
        .flatMap((item) => item.lines)
        .join('\n'),
      lines: ordered.flatMap((item) => item.lines),
      nested: ordered.flatMap((item) => item.tables),
    };
  });
  const columns = gridLines(placed.flatMap((c) => [c.left, c.right]));
  const rows = gridLines(placed.flatMap((c) => [c.top, c.bottom]));
  const anchored = placed
    .map((c) => {
      const row = nearest(rows, c.top);
      const col = nearest(columns, c.left);
      return {
        row,
        col,
        placed: c,
        cell: {
          text: c.text,
          rowspan: Math.max(1, nearest(rows, c.bottom) - row),
          colspan: Math.max(1, nearest(columns, c.right) - col),
          header: false,
        } satisfies TableCell,
      };
    })
    .sort((a, b) => a.row - b.row || a.col - b.col);

  const numRows = Math.max(1, rows.length - 1);
  const numCols = Math.max(1, columns.length - 1);
  const covered = Array.from({ length: numRows }, () => new Array<boolean>(numCols).fill(false));
  for (const { row, col, cell } of anchored) {
    for (let r = row; r < Math.min(numRows, row + cell.rowspan); r++) {
      for (let c = col; c < Math.min(numCols, col + cell.colspan); c++) covered[r][c] = true;
    }
  }
  const grid: { col: number; cell: TableCell }[][] = Array.from({ length: numRows }, () => []);
  for (const { row, col, cell } of anchored) grid[Math.min(row, numRows - 1)].push({ col, cell });
  covered.forEach((slots, row) =>
    slots.forEach((taken, col) => {
      if (!taken) grid[row].push({ col, cell: { text: '', rowspan: 1, colspan: 1, header: false } });
    }),
  );
  const table: Table = { rows: grid.map((r) => r.sort((a, b) => a.col - b.col).map((x) => x.cell)) };
  return {
    kind: 'table',
    at,
    lines: anchored.flatMap((a) => a.placed.lines),
    tables: [table, ...anchored.flatMap((a) => a.placed.nested)],
  };
}

/** Distinct positions, those within the tolerance of a group's first merged into it (at their mean). */
function gridLines(values: number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const lines: number[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i + 1;
    while (j < sorted.length && sorted[j] - sorted[i] <= EDGE_TOLERANCE_MM) j++;
    lines.push(sorted.slice(i, j).reduce((s, v) => s + v, 0) / (j - i));
    i = j;
  }
  return lines;
}

function nearest(lines: number[], value: number): number {
  let best = 0;
  for (let i = 1; i < lines.length; i++) if (Math.abs(lines[i] - value) < Math.abs(lines[best] - value)) best = i;
  return best;
}
