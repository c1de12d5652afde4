import type { Cell, GridCell as TableCell } from '@docconv/model';
import { FIGURES, inked, median, toLine, words, type Line, type TextRun } from './layout';
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

/** Runs further apart than this (ems) are separate cells of a row. */
const CELL_GAP_EM = 0.8;
/** Whitespace at least this wide (ems) between the cells of every row is a column boundary. */
const RIVER_EM = 0.5;
/** Lines closer than this share of the row pitch belong to the same row. */
const SAME_ROW_PITCH = 0.75;
const LEADER = /^(.*?\S)\s*(?:\.\s*){4,}([^.\s]\S{0,7})$/;
const LIST_MARKER = /^(?:[•◦▪▫‣∙·●○■□►▶✓✔–—*-]|\(?(?:\d{1,3}|[a-z]|[ivx]{1,4})[.)])$/i;
/** A piece this many words long is running text. */
const PROSE_WORDS = 8;

interface Piece {
  text: string;
  x0: number;
  x1: number;
  /** The stretch of a rule drawn under the piece's text (see withRulesUnder). */
  under?: [number, number];
}

interface Row {
  lines: Line[];
}

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
 * A contents entry (`Title . . . . . 17`) as two pieces, the title and the page number at the
 * right end, without the dot leader between them.
 */
function withoutLeader(piece: Piece, size: number): Piece[] {
  const leader = LEADER.exec(piece.text);
  if (!leader) return [{ ...piece, text: piece.text.replace(/(?:\s*\.){4,}\s*$/, '').trim() || piece.text }];
  const [, title, page] = leader;
  const glyph = size * 0.5; // an average glyph's width, for where the two parts end and start
  const pageX0 = Math.max(piece.x0, piece.x1 - page.length * glyph * 1.2);
  // The leader lies between them: the title ends well before the page number starts.
  return [
    { text: title.trim(), x0: piece.x0, x1: Math.min(piece.x0 + title.length * glyph, pageX0 - size * 1.5) },
    { text: page, x0: pageX0, x1: piece.x1 },
  ];
}

/**
 * The line's text in pieces, split where runs are more than CELL_GAP_EM apart, between the values
 * of a run of figures, and at dot leaders.
 */
export function piecesOf(line: Line): Piece[] {
  // A run of figures alone, each with a digit (a row of values a producer wrote as one string),
  // is one value a piece; a dot leader ending in a page number is not such a run.
  const values = new Set<TextRun>();
  const runs = line.runs
    .filter(inked)
    .flatMap((run) => {
      const tokens = run.text.trim().split(/\s+/);
      if (tokens.length < 2 || !tokens.every((token) => FIGURES.test(token))) return [run];
      const split = words(run);
      for (const value of split) values.add(value);
      return split;
    })
    .sort((a, b) => a.x - b.x);
  if (runs.length === 0) return [];
  const groups: TextRun[][] = [[runs[0]]];
  for (let i = 1; i < runs.length; i++) {
    const previous = runs[i - 1];
    const apart = runs[i].x - (previous.x + previous.width) > line.size * CELL_GAP_EM;
    if (apart || (values.has(runs[i]) && values.has(previous))) groups.push([runs[i]]);
    else groups[groups.length - 1].push(runs[i]);
  }
  const pieces = groups.flatMap((group) => {
    const piece = toLine(group);
    const under = group.find((run) => run.ruledUnder)?.ruledUnder;
    return withoutLeader({ text: piece.text, x0: piece.x, x1: piece.right, ...(under ? { under } : {}) }, line.size);
  });
  // A list item's marker, set off from its text, is not a cell of its own.
  if (pieces.length >= 2 && LIST_MARKER.test(pieces[0].text)) {
    pieces.splice(0, 2, { text: `${pieces[0].text} ${pieces[1].text}`, x0: pieces[0].x0, x1: pieces[1].x1 });
  }
  return pieces;
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

/** The share of a table's lines whose pieces may run across a column boundary (header cells over two columns). */
const CROSSING_SHARE = 0.2;

/**
 * The x of each column boundary: the middle of each stretch at least RIVER_EM wide that the
 * pieces of the lines leave free, with pieces on both sides, but for those of CROSSING_SHARE of
 * the lines at most, each spanning the two columns (a header over two columns of figures; see
 * spans). Within such a stretch the boundary stands in the middle of its widest part that the
 * fewest lines cross.
 */
function columnBoundaries(lines: Piece[][], size: number): number[] {
  // Pieces wider than a third of the table (a title row, a note) would close every river; they are placed later.
  const pieces = lines.flat();
  if (pieces.length === 0) return [];
  const left = Math.min(...pieces.map((p) => p.x0));
  const right = Math.max(...pieces.map((p) => p.x1));
  const narrow = (p: Piece) => p.x1 - p.x0 < (right - left) / 3 || pieces.length < 6;
  const kept = lines.map((line) => line.filter(narrow)).filter((line) => line.length > 0);
  const allowed = Math.floor(kept.length * CROSSING_SHARE);
  // Elementary stretches between piece edges, each with the number of lines covering it.
  const edges = [...new Set(kept.flat().flatMap((p) => [p.x0, p.x1]))].sort((a, b) => a - b);
  const stretches = edges.slice(0, -1).map((x0, i) => {
    const x1 = edges[i + 1];
    const mid = (x0 + x1) / 2;
    return { x0, x1, lines: kept.filter((line) => line.some((p) => p.x0 <= mid && p.x1 >= mid)).length };
  });
  const boundaries: number[] = [];
  for (let i = 0; i < stretches.length;) {
    if (stretches[i].lines > allowed) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < stretches.length && stretches[j + 1].lines <= allowed) j++;
    const river = stretches.slice(i, j + 1);
    if (river[river.length - 1].x1 - river[0].x0 >= size * RIVER_EM) {
      const fewest = Math.min(...river.map((s) => s.lines));
      const best = river.filter((s) => s.lines === fewest).sort((a, b) => b.x1 - b.x0 - (a.x1 - a.x0))[0];
      const x = (best.x0 + best.x1) / 2;
      // A boundary parts columns: a river at the table's edge (figures ending a hair apart leave
      // one) would open an empty column.
      const parts = pieces.some((p) => p.x1 <= x) && pieces.some((p) => p.x0 >= x);
      if (parts && kept.every((line) => line.every((p) => !(p.x0 < x && p.x1 > x) || spans(p, x, kept, line))))
        boundaries.push(x);
    }
    i = j + 1;
  }
  return boundaries;
}

/**
 * Whether a piece across `x` spans two columns: pieces of other lines that keep to one side of
 * `x` stand under it on both sides (a header over two columns of figures), not on one side only
 * (a long figure in a column of short ones, reaching out past them).
 */
function spans(piece: Piece, x: number, lines: Piece[][], own: Piece[]): boolean {
  const under = (from: number, to: number) =>
    lines.some((line) => line !== own && line.some((p) => p.x0 < to && p.x1 > from && (p.x1 <= x || p.x0 >= x)));
  return under(piece.x0, x) && under(x, piece.x1);
}

/**
 * The middle of each column: of the text that stands in it (its pieces within its boundaries), or
 * else between its boundaries (the table's `left` and `right` edges outside). A rule drawn under a
 * group label starts at the left of the right-aligned figures it heads, off the middle of a wide
 * first column, and over the middle of its text.
 */
function columnMiddles(boundaries: number[], [left, right]: [number, number], pieces: Piece[]): number[] {
  const edges = [left, ...boundaries, right];
  return edges.slice(0, -1).map((x0, c) => {
    const x1 = edges[c + 1];
    const inside = pieces.filter((p) => p.x0 >= x0 && p.x1 <= x1);
    if (inside.length === 0) return (x0 + x1) / 2;
    return (Math.min(...inside.map((p) => p.x0)) + Math.max(...inside.map((p) => p.x1))) / 2;
  });
}

/** Lines grouped into rows: a line closer to the one above than most rows are to each other continues its row. */
function groupRows(lines: Line[]): Row[] {
  const pitches: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (piecesOf(lines[i]).length >= 2 && piecesOf(lines[i - 1]).length >= 2) pitches.push(lines[i].y - lines[i - 1].y);
  }
  const pitch = pitches.length > 0 ? median(pitches) : median(lines.map((l) => l.size)) * 1.5;
  const rows: Row[] = [];
  for (const [i, line] of lines.entries()) {
    const joins = i > 0 && line.y - lines[i - 1].y < pitch * SAME_ROW_PITCH;
    if (joins) {
      rows[rows.length - 1].lines.push(line);
    } else {
      rows.push({ lines: [line] });
    }
  }
  return rows;
}

/**
 * A row's cells: each piece in the columns it covers, pieces of one column joined top to bottom.
 * A piece alone over a rule drawn under it (a header over a group of columns) spans the columns
 * the rule runs over, as far as they hold nothing of their own in the row; a row whose text all
 * starts in the stub (a section's label) spans nothing.
 */
function cellsOf(row: Row, boundaries: number[], [left, right]: [number, number], middles: number[]): TableCell[] {
  const columns = boundaries.length + 1;
  const column = (x: number) => boundaries.filter((b) => b < x).length;
  const placed = row.lines.flatMap((line) =>
    piecesOf(line).map((piece, _, pieces) => {
      const own = column(piece.x0 + 0.5);
      const stretch = piece.under;
      if (!stretch || pieces.filter((p) => p.x0 < stretch[1] && p.x1 > stretch[0]).length !== 1)
        return { piece, own, from: own, to: column(piece.x1 - 0.5) };
      // Alone over its rule: the columns whose middles the rule runs over, its own among them.
      const under = middles.flatMap((m, c) => (m >= stretch[0] && m <= stretch[1] ? [c] : []));
      return { piece, own, from: Math.min(own, ...under), to: Math.max(column(piece.x1 - 0.5), ...under) };
    }),
  );
  // A section's label, alone in the stub however far it runs, is the stub's cell: a row of nothing else.
  if (placed.every((p) => p.own === 0 && !p.piece.under)) for (const p of placed) p.to = 0;
  const taken = new Set(placed.map((p) => p.own));
  const texts: string[] = Array.from({ length: columns }, () => '');
  const spans: number[] = Array.from({ length: columns }, () => 1);
  for (const { piece, own, from: reach, to } of placed) {
    // A rule's stretch reaches left only over columns empty in this row.
    let from = own;
    while (from > reach && !taken.has(from - 1)) from--;
    texts[from] = texts[from] ? `${texts[from]} ${piece.text}` : piece.text;
    if (to > from) spans[from] = Math.max(spans[from], to - from + 1);
  }
  // A piece spans only columns that hold nothing of their own in this row.
  for (let c = 0; c < columns; c++) {
    for (let k = 1; k < spans[c]; k++) {
      if (texts[c + k] !== '') {
        spans[c] = k;
        break;
      }
    }
  }
  const cells: TableCell[] = [];
  const slot = slotBox(row.lines, boundaries, [left, right]);
  for (let c = 0; c < columns; c++) {
    cells.push({ text: texts[c], rowspan: 1, colspan: spans[c], box: slot(c, c + spans[c] - 1) });
    c += spans[c] - 1; // the columns a spanning piece covers are part of its cell
  }
  return cells;
}

/**
 * Where the cells of a row of `lines` stand: columns `from` to `to` (their edges the boundaries
 * between the table's columns, its extent outside), from the top of the row's type to the foot of
 * its last line.
 */
function slotBox(
  lines: Line[],
  boundaries: number[],
  [left, right]: [number, number],
): (from: number, to: number) => [number, number, number, number] {
  const edges = [left, ...boundaries, right];
  const top = Math.min(...lines.map((line) => line.y - line.size));
  const bottom = Math.max(...lines.map((line) => line.y + line.size * 0.25));
  return (from, to) => [edges[from], top, edges[to + 1], bottom];
}

/** How far from the middle of its columns (a share of their width) a label without a rule may stand. */
const CENTRED = 0.15;

/** The row a group label makes over the table's columns (see tableFrom), if it stands over them. */
function groupLabelRow(
  label: Line,
  boundaries: number[],
  [left, right]: [number, number],
  middles: number[],
): TableCell[] | undefined {
  const [piece] = piecesOf(label);
  if (!piece || piece.x0 < boundaries[0] || piece.x1 > right + label.size) return undefined;
  const under = piece.under;
  const spanned = under ? middles.flatMap((m, c) => (c > 0 && m >= under[0] && m <= under[1] ? [c] : [])) : [];
  const [from, to] = spanned.length > 0 ? [spanned[0], spanned[spanned.length - 1]] : [1, boundaries.length];
  // Without a rule, a label over all the columns stands in their middle (not over one of them: the
  // first line of a header cell that wraps).
  const [x0, x1] = [boundaries[from - 1], to < boundaries.length ? boundaries[to] : right];
  if (!under && Math.abs((piece.x0 + piece.x1) / 2 - (x0 + x1) / 2) > (x1 - x0) * CENTRED) return undefined;
  const slot = slotBox([label], boundaries, [left, right]);
  const empty = (c: number): TableCell => ({ text: '', rowspan: 1, colspan: 1, box: slot(c, c) });
  return [
    ...Array.from({ length: from }, (_, c) => empty(c)),
    { text: piece.text, rowspan: 1, colspan: to - from + 1, box: slot(from, to) },
    ...Array.from({ length: boundaries.length - to }, (_, i) => empty(to + 1 + i)),
  ];
}
