import type { TableCell } from '@docconv/model';

/**
 * Where a table's Markdown can be cut between rows, as `[start, end)` stretches (UTF-16 units,
 * from the table's start): the header (a GFM table's header line and delimiter; an HTML table's
 * `<table>` line and its header rows) and each group of body rows that must stay together (rows
 * a cell spans over). The first group starts with the header, and an HTML table's closing
 * `</table>` line ends the last.
 */
export interface TableRows {
  header: [number, number];
  groups: [number, number][];
  html: boolean;
}

const GFM_DELIMITER = /^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const HTML_TAG = /<(\/?)(table|tr)\b[^>]*>/gi;

/**
 * The rows of a table's Markdown as the writer writes it (GFM, one row a line; HTML, one `<tr>`
 * a line, tables nested in cells inside it), grouped by the cells' row spans; undefined for
 * Markdown of another shape (a table of an uploaded Markdown file written otherwise), which is
 * then never cut between rows.
 */
export function tableRows(markdown: string, cells: readonly TableCell[] = []): TableRows | undefined {
  const rows = markdown.startsWith('<table') ? htmlRows(markdown) : gfmRows(markdown);
  if (!rows || rows.rows.length <= rows.headerRows) return undefined;
  const headerRows = Math.max(rows.headerRows, leadingHeaderRows(cells, rows.rows.length));
  if (rows.rows.length <= headerRows) return undefined;
  const spanned = spannedBoundaries(cells, rows.rows.length);
  const groups: [number, number][] = [];
  for (let r = headerRows; r < rows.rows.length; r++) {
    const [start, end] = rows.rows[r];
    if (groups.length > 0 && spanned.has(r)) groups[groups.length - 1][1] = end;
    else groups.push([start, end]);
  }
  // The first group carries the header, the last the rest of the table (an HTML table's closing line).
  groups[0][0] = 0;
  groups[groups.length - 1][1] = markdown.length;
  return { header: [0, rows.rows[headerRows - 1][1]], groups, html: rows.html };
}

interface RawRows {
  rows: [number, number][];
  headerRows: number;
  html: boolean;
}

function gfmRows(markdown: string): RawRows | undefined {
  const rows: [number, number][] = [];
  let start = 0;
  for (const line of markdown.split('\n')) {
    rows.push([start, start + line.length]);
    start += line.length + 1;
  }
  if (rows.length < 3 || !GFM_DELIMITER.test(markdown.slice(rows[1][0], rows[1][1]))) return undefined;
  // The delimiter line belongs to the header.
  return { rows: [[rows[0][0], rows[1][1]], ...rows.slice(2)], headerRows: 1, html: false };
}

function htmlRows(markdown: string): RawRows | undefined {
  const rows: [number, number][] = [];
  let tables = 0;
  let open = -1;
  for (const tag of markdown.matchAll(HTML_TAG)) {
    const closing = tag[1] === '/';
    const name = tag[2].toLowerCase();
    if (name === 'table') tables += closing ? -1 : 1;
    else if (tables === 1 && !closing) open = tag.index;
    else if (tables === 1 && closing && open >= 0) {
      rows.push([open, tag.index + tag[0].length]);
      open = -1;
    }
  }
  if (tables !== 0 || rows.length === 0) return undefined;
  // The `<table>` line opens the header.
  return { rows: [[0, rows[0][1]], ...rows.slice(1)], headerRows: 1, html: true };
}

/** How many of the first rows hold header cells only. */
function leadingHeaderRows(cells: readonly TableCell[], count: number): number {
  let rows = 0;
  while (rows < count) {
    const row = cells.filter((cell) => cell.row === rows);
    if (row.length === 0 || row.some((cell) => !cell.header)) break;
    rows++;
  }
  return rows;
}

/** The rows that a cell of an earlier row spans into: no cut before them. */
function spannedBoundaries(cells: readonly TableCell[], count: number): Set<number> {
  const spanned = new Set<number>();
  for (const cell of cells)
    for (let r = cell.row + 1; r < Math.min(count, cell.row + cell.rowspan); r++) spanned.add(r);
  return spanned;
}
