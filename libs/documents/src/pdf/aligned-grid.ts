/**
 * The grid of an aligned table put right once its rows are read: header labels wrapping over
 * lines joined, a row of group labels heading its columns, currency signs joined to their figures.
 */
import type { GridCell as TableCell } from '@docconv/model';
import { FIGURES } from './layout';
import { unionBox } from './model-blocks';

/** The box around cells' boxes, when they have them. */
const around = (...cells: TableCell[]) => {
  const box = unionBox(cells.flatMap((cell) => (cell.box ? [cell.box] : [])));
  return box ? { box } : {};
};

/** A header this many rows deep or deeper is not labels wrapping over lines. */
const MAX_HEADER_LINES = 5;

/**
 * The rows above a table's first row of figures (below a row of group labels), when none of
 * them spans columns, joined into one header row: its labels wrap over several lines ("Percentage of / desired / coverage"), each
 * line of which the alignment read as a row. A table without figures keeps its rows.
 */
export function withHeaderLinesJoined(grid: TableCell[][]): TableCell[][] {
  // A row of group labels over the header (cells spanning columns) stays a row of its own.
  const from = grid[0].some((cell) => cell.colspan > 1) ? 1 : 0;
  // The body opens with figures, or with a section's label alone in the first column ("Sex").
  const figures = grid.findIndex((row) => row.some((cell) => cell.text !== '' && FIGURES.test(cell.text)));
  if (figures < 0) return grid;
  const sectionLabel = (row: TableCell[]) =>
    row.length > 1 && row[0].text !== '' && row.slice(1).every((cell) => cell.text === '');
  const section = grid.findIndex((row, r) => r > from && sectionLabel(row));
  const body = section >= 0 ? Math.min(section, figures) : figures;
  if (body - from < 2 || body > MAX_HEADER_LINES) return grid;
  const head = grid.slice(from, body);
  const width = head[0].length;
  if (head.some((row) => row.length !== width || row.some((cell) => cell.colspan > 1))) return grid;
  const joined = head[0].map((cell, c) => ({
    ...cell,
    ...around(...head.map((row) => row[c])),
    text: head
      .map((row) => row[c].text)
      .filter((text) => text !== '')
      .join(' '),
  }));
  return [...grid.slice(0, from), joined, ...grid.slice(body)];
}

/**
 * A header of two rows whose first holds only labels over groups of columns (each spanning two
 * or more): the first row's empty cell over a label of the second is that label's, which then
 * spans both rows (the stub's "Region and state" beside "Actual" over its years).
 */
export function withGroupHeader(grid: TableCell[][]): TableCell[][] {
  const [first, second] = grid;
  if (!second || !first.some((cell) => cell.colspan > 1)) return grid;
  if (!first.every((cell) => cell.text === '' || cell.colspan > 1)) return grid;
  const startOf = (row: TableCell[]) => row.map((_, i) => row.slice(0, i).reduce((n, cell) => n + cell.colspan, 0));
  const secondStarts = startOf(second);
  const moved = new Set<number>();
  const top = first.map((cell, i) => {
    if (cell.text !== '' || cell.colspan !== 1) return cell;
    const below = secondStarts.indexOf(startOf(first)[i]);
    if (below < 0 || second[below].colspan !== 1 || second[below].text === '') return cell;
    moved.add(below);
    return { ...second[below], rowspan: 2, ...around(cell, second[below]) };
  });
  return [top, second.filter((_, i) => !moved.has(i)), ...grid.slice(2)];
}

const CURRENCY = /^[$€£¥₩]$/;

/** A column of currency signs alone (`$` set apart from its figures) joins the column to its right. */
export function withCurrencyJoined(grid: TableCell[][]): TableCell[][] {
  const width = Math.max(...grid.map((r) => r.length));
  let rows = grid;
  for (let c = width - 2; c >= 0; c--) {
    const signs = rows.map((r) => r[c]?.text ?? '').filter((t) => t !== '');
    if (signs.length === 0 || !signs.every((t) => CURRENCY.test(t))) continue;
    if (!rows.every((r) => r.length === width && r[c].colspan === 1 && r[c + 1]?.colspan === 1)) continue;
    rows = rows.map((r) => [
      ...r.slice(0, c),
      {
        ...r[c + 1],
        ...around(r[c], r[c + 1]),
        text: r[c].text && r[c + 1].text ? `${r[c].text}${r[c + 1].text}` : r[c + 1].text || r[c].text,
      },
      ...r.slice(c + 2),
    ]);
  }
  return rows;
}
