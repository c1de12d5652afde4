import type { Cell, GridCell as TableCell } from '@docconv/model';
import { FIGURES, median, type Line } from './layout';
import { piecesOf, type Piece } from './aligned-pieces';
import { cellsOf, columnBoundaries, columnMiddles, groupLabelRow, groupRows } from './aligned-columns';
import { modelRows } from './model-blocks';
import { withCurrencyJoined, withGroupHeader, withHeaderLinesJoined } from './aligned-grid';
import { CAPTION, NOTE } from './figures';

/**
 * Tables without rules, from how their text is aligned. A run of lines whose text breaks into
 * pieces at wide gaps is a table candidate; its columns are the vertical whitespace the pieces
 * leave free, its rows the lines, with lines set closer than the rows' own pitch joined into one
 * row (a cell that wraps, a label on two lines). A piece over several columns spans them. A
 * column of nothing but currency signs joins the numbers beside it.
 */

/** A piece this many words long is running text. */
const PROSE_WORDS = 8;

/** An aligned table's rows and how many of them head it. */
export interface AlignedGrid {
  rows: Cell[][];
  headerRows: number;
}

/**
 * The tables found at `start` (one, or two set side by side, left first) and the index of the
 * first line after them.
 */
export interface AlignedTable {
  tables: AlignedGrid[];
  end: number;
}

/**
 * The aligned table that starts at `lines[start]`, if one does: at least three rows, two or more
 * columns, and rows that hold text in two or more columns — not two columns of prose.
 */
export function alignedTableAt(lines: Line[], start: number): AlignedTable | undefined {
  const first = lines[start];
  // A caption ("Table 15. …") heads the table; it is not its first row.
  if (first.block || CAPTION.test(first.text)) return undefined;
  if (piecesOf(first).length >= 2) return tableFrom(lines, start);
  // A short label alone on its line just above a table heads a group of its columns.
  const next = lines[start + 1];
  if (!next || first.text.length > GROUP_LABEL_CHARS || next.y - first.y > first.size * GROUP_LABEL_GAP)
    return undefined;
  return tableFrom(lines, start + 1, first);
}

/** A gap between a table's lines this many of its first line's sizes tall ends it… */
const GAP_SIZES = 3.5;
/** …unless a section's label follows it within this many of its rows' pitch, where the pitches are even: within this share of their median. */
const GAP_PITCHES = 2.5;
const EVEN_PITCH = 0.2;

/** A group label is at most this many characters… */
const GROUP_LABEL_CHARS = 60;
/** …and stands at most this many of its sizes above the table's first line. */
const GROUP_LABEL_GAP = 2;

/**
 * The aligned table whose first row is `lines[start]`, headed by `label` when given: a line of one
 * piece over the table's columns but the first (the stub's), which spans the columns a rule
 * drawn under it runs over, or else all of them ("Lead time (years)" over the years). A label
 * that does not stand so heads no table.
 */
function tableFrom(lines: Line[], start: number, label?: Line): AlignedTable | undefined {
  const first = lines[start];
  const size = first.size;
  // The candidate: lines in pieces, and single lines between them (wrapped cells, section rows),
  // up to a caption, which heads what follows it (a page's running head in two pieces stands
  // above a table's caption, never in the table), or a note ("Source: …"), which ends it.
  let end = start + 1;
  let lastMulti = start;
  // A gap of GAP_SIZES of the first line's size ends it, unless a section's label (one piece)
  // stands after it within GAP_PITCHES of the rows' pitch, where they stand evenly: a blank row
  // before "Projected" is no end, and the sizes of a scan's lines, read from their boxes, are too
  // small on a page of figures to tell that alone.
  const pitches: number[] = [];
  const sectionAfterBlankRow = (line: Line, gap: number) => {
    const pitch = median(pitches);
    const even = pitches.filter((p) => Math.abs(p - pitch) <= pitch * EVEN_PITCH).length >= pitches.length * 0.8;
    return pitches.length >= 2 && even && gap <= pitch * GAP_PITCHES && piecesOf(line).length === 1;
  };
  while (end < lines.length && !lines[end].block && !CAPTION.test(lines[end].text) && !NOTE.test(lines[end].text)) {
    const gap = lines[end].y - lines[end - 1].y;
    if (gap >= size * GAP_SIZES && !sectionAfterBlankRow(lines[end], gap)) break;
    pitches.push(gap);
    const pieces = piecesOf(lines[end]);
    if (pieces.length >= 2) lastMulti = end;
    else if (end - lastMulti > 2 || isProse(lines[end], lines, start, end)) break;
    end++;
  }
  end = lastMulti + 1;
  const span = lines.slice(start, end);
  const multi = span.filter((l) => piecesOf(l).length >= 2);
  if (multi.length < 3 || proseColumns(multi)) return undefined;

  const boundaries = columnBoundaries(multi.map(piecesOf), size);
  if (boundaries.length === 0 || boundaries.length > 24) return undefined;
  // Justified prose splits at random wide gaps: its long pieces run over text that other lines
  // have in the next "column". A table's cells keep clear of each other, but for the odd one that spans.
  const all = multi.flatMap((line) => piecesOf(line).map((piece) => ({ line, piece })));
  const intruding = multi.filter((line) =>
    piecesOf(line).some((p) =>
      boundaries.some(
        (b) =>
          p.x0 < b - 1 && p.x1 > b + 1 && all.some((o) => o.line !== line && o.piece.x0 >= b && o.piece.x0 < p.x1 - 1),
      ),
    ),
  );
  if (intruding.length > multi.length * 0.25) return undefined;
  const rows = groupRows(span);
  if (rows.length < 3) return undefined;
  // A right-to-left table is read from its rightmost column.
  const rtl = span.filter((l) => l.rtl).length > span.length / 2;
  const extent: [number, number] = [Math.min(...all.map((p) => p.piece.x0)), Math.max(...all.map((p) => p.piece.x1))];
  const middles = columnMiddles(
    boundaries,
    extent,
    all.map(({ piece }) => piece),
  );
  const grid = rows.map((row) =>
    rtl ? cellsOf(row, boundaries, extent, middles).reverse() : cellsOf(row, boundaries, extent, middles),
  );
  if (grid.filter((cells) => cells.filter((c) => c.text !== '').length >= 2).length < 2) return undefined;
  // A grid half or more of whose slots are empty is scattered text (a chart's labels), not a table.
  const filled = grid.flat().reduce((n, cell) => n + (cell.text === '' ? 0 : cell.colspan), 0);
  if (filled * 2 <= grid.length * (boundaries.length + 1)) return undefined;
  if (chartScale(grid)) return undefined;
  if (label) {
    const head = groupLabelRow(label, boundaries, extent, middles);
    if (!head) return undefined;
    grid.unshift(head);
  }
  const pieces = all.map(({ piece }) => piece);
  const split = label ? undefined : besideAt(grid, boundaries, pieces, size);
  const grids = split === undefined ? [grid] : sideBySide(grid, split);
  return { tables: grids.map(finished), end };
}

/** A grid as read, its header put right (see aligned-grid.ts). */
function finished(grid: TableCell[][]): AlignedGrid {
  const cells = withGroupHeader(withHeaderLinesJoined(withCurrencyJoined(grid)));
  return { rows: modelRows(cells), headerRows: cells[0].some((cell) => cell.rowspan > 1) ? 2 : 1 };
}

/** A river this many times as wide as every other between a table's columns… */
const BESIDE_RATIO = 2.5;
/** …and at least this wide (ems) parts two tables set side by side… */
const BESIDE_EM = 2;
/** …whose twin columns differ in width by this factor at most. */
const TWIN_WIDTH = 2;

/**
 * The first column of a second table set beside the first, when the grid is two: a river far
 * wider than every other between its columns, no piece across it, and on each side the same
 * columns (as many, about as wide, figures under figures and words under words: a list wrapped
 * into two blocks, or two tables of one kind). A wide gap after a table's stub alone parts nothing.
 */
function besideAt(grid: TableCell[][], boundaries: number[], pieces: Piece[], size: number): number | undefined {
  const columns = boundaries.length + 1;
  if (columns < 4 || columns % 2 !== 0) return undefined;
  const middle = columns / 2 - 1;
  const river = (b: number) => {
    if (pieces.some((p) => p.x0 < b && p.x1 > b)) return 0;
    const before = Math.max(...pieces.filter((p) => p.x1 <= b).map((p) => p.x1));
    const after = Math.min(...pieces.filter((p) => p.x0 >= b).map((p) => p.x0));
    return after - before;
  };
  const rivers = boundaries.map(river);
  const others = Math.max(...rivers.filter((_, i) => i !== middle));
  if (rivers[middle] < size * BESIDE_EM || rivers[middle] < others * BESIDE_RATIO) return undefined;
  if (grid.some((row) => row.length !== columns)) return undefined;
  const figures = (c: number) => {
    const texts = grid.map((row) => row[c].text).filter((text) => text !== '');
    return texts.filter((text) => FIGURES.test(text)).length > texts.length / 2;
  };
  // The widest piece of each column: a column and its twin are about as wide.
  const widths = Array.from({ length: columns }, (_, c) => {
    const [from, to] = [boundaries[c - 1] ?? -Infinity, boundaries[c] ?? Infinity];
    return Math.max(0, ...pieces.filter((p) => p.x0 >= from && p.x1 <= to).map((p) => p.x1 - p.x0));
  });
  const half = columns / 2;
  // Each side a table of its own: three rows or more with text in two of its cells.
  const rowsOf = (from: number, to: number) =>
    grid.filter((row) => row.slice(from, to).filter((cell) => cell.text !== '').length >= 2).length;
  if (rowsOf(0, half) < 3 || rowsOf(half, columns) < 3) return undefined;
  for (let c = 0; c < half; c++) {
    if (figures(c) !== figures(c + half)) return undefined;
    const [narrow, wide] = [widths[c], widths[c + half]].sort((a, b) => a - b);
    if (wide > narrow * TWIN_WIDTH) return undefined;
  }
  return half;
}

/** A grid parted at column `at` into the table on the left and the one on the right, each without its empty rows. */
function sideBySide(grid: TableCell[][], at: number): TableCell[][][] {
  const side = (cells: (row: TableCell[]) => TableCell[]) =>
    grid.map(cells).filter((row) => row.some((cell) => cell.text !== ''));
  return [side((row) => row.slice(0, at)), side((row) => row.slice(at))];
}

/** A number alone, as a chart's scale writes its ticks. */
const TICK = /^[-−]?\d+(?:[.,]\d+)?%?$/;
/** A chart's scale has at least this many ticks… */
const SCALE_TICKS = 3;
/** …and they are at least this share of the numbers in their column. */
const SCALE_SHARE = 0.75;

/**
 * The labels of a chart (its value scale's ticks beside its legend), not a table: a column whose
 * numbers fall down the page by one step (450, 400, 350, … the way a value axis reads) and no
 * other figures in the grid but such columns'. A table of figures beside a falling column (years
 * newest first) has figures of its own.
 */
function chartScale(grid: TableCell[][]): boolean {
  const columns = new Map<number, string[]>();
  const others: string[] = [];
  for (const row of grid) {
    let c = 0;
    for (const cell of row) {
      const column = columns.get(c) ?? [];
      column.push(cell.text);
      columns.set(c, column);
      c += cell.colspan;
    }
  }
  const scales = [...columns.values()].filter(isScale);
  if (scales.length === 0) return false;
  for (const column of columns.values()) if (!isScale(column)) others.push(...column);
  return !others.some((text) => text.split(/\s+/).some((token) => FIGURES.test(token)));
}

/**
 * Whether a column's numbers are mostly ticks falling by one step (see chartScale): the longest
 * such run, a stray number between two ticks (a speck a scan read as `1`) passed over.
 */
function isScale(texts: string[]): boolean {
  const values = texts
    .flatMap((text) => text.split(/\s+/))
    .filter((token) => TICK.test(token))
    .map((token) => Number(token.replace('−', '-').replace(',', '.').replace('%', '')));
  let longest = 0;
  // Each step from a tick to the next number, or to the one after (a stray number between them).
  for (let i = 0; i + 1 < values.length; i++) {
    for (const next of [i + 1, i + 2].filter((k) => k < values.length)) {
      const step = values[i] - values[next];
      if (step <= 0) continue;
      let [ticks, last] = [1, values[i]];
      for (let j = i + 1; j < values.length; j++) {
        if (Math.abs(last - values[j] - step) < step * 1e-6) [ticks, last] = [ticks + 1, values[j]];
      }
      longest = Math.max(longest, ticks);
    }
  }
  return longest >= SCALE_TICKS && longest >= values.length * SCALE_SHARE;
}

/** A single line that reads as running text: as wide as the candidate's widest line and long. */
function isProse(line: Line, lines: Line[], start: number, end: number): boolean {
  const widest = Math.max(...lines.slice(start, end).map((l) => l.right - l.x));
  return line.text.length > 60 && line.right - line.x > widest * 0.8;
}

/**
 * Columns of prose rather than a table: most lines hold a piece of running text, and there are
 * few columns (a wide table of figures may have a long label on every row).
 */
function proseColumns(lines: Line[]): boolean {
  const pieces = lines.map(piecesOf);
  const wordy = pieces.filter((p) => p.some((piece) => piece.text.split(/\s+/).length >= PROSE_WORDS));
  const columns = median(pieces.map((p) => p.length));
  return wordy.length >= lines.length * 0.5 && columns <= 3;
}
