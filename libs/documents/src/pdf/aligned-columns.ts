import type { GridCell as TableCell } from '@docconv/model';
import { median, type Line } from './layout';
import { piecesOf, type Piece } from './aligned-pieces';

/**
 * The columns and rows of an aligned table: its column boundaries are the rivers of whitespace
 * its lines' pieces leave free, its rows its lines (those set closer than the rows' pitch joined),
 * and each row's cells the pieces in the columns they cover.
 */

/** Whitespace at least this wide (ems) between the cells of every row is a column boundary. */
const RIVER_EM = 0.5;
/** Lines closer than this share of the row pitch belong to the same row. */
const SAME_ROW_PITCH = 0.75;

interface Row {
  lines: Line[];
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
export function columnBoundaries(lines: Piece[][], size: number): number[] {
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
export function columnMiddles(boundaries: number[], [left, right]: [number, number], pieces: Piece[]): number[] {
  const edges = [left, ...boundaries, right];
  return edges.slice(0, -1).map((x0, c) => {
    const x1 = edges[c + 1];
    const inside = pieces.filter((p) => p.x0 >= x0 && p.x1 <= x1);
    if (inside.length === 0) return (x0 + x1) / 2;
    return (Math.min(...inside.map((p) => p.x0)) + Math.max(...inside.map((p) => p.x1))) / 2;
  });
}

/** Lines grouped into rows: a line closer to the one above than most rows are to each other continues its row. */
export function groupRows(lines: Line[]): Row[] {
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
export function cellsOf(
  row: Row,
  boundaries: number[],
  [left, right]: [number, number],
  middles: number[],
): TableCell[] {
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
export function groupLabelRow(
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
