/**
 * The rows and columns of a ruled grid that its rules alone do not give: tracks no word stands
 * in (slivers) dropped, and the columns and rows a table leaves undrawn found from its words.
 */
import { BULLET_CHARS, buildLines, FIGURES, median, type Line, type TextRun } from './layout';

/** An empty track this many ems wide or wider is a chart's band between grid lines, not a sliver of a table. */
const EMPTY_TRACK_EM = 3;

/**
 * Track edges without the tracks no word stands in: a sliver between a border and a shaded
 * row's offset edge, or between doubled lines, holds nothing and is no row or column. Such a
 * track joins its neighbour across the less drawn of its two edges (`drawn`: how much of the
 * line at an edge is drawn); the table's outer edges stay. A grid with a wide empty track
 * (EMPTY_TRACK_EM, in ems of `em`) is a chart's, and has none.
 */
export function inkedTracks(
  edges: number[],
  centres: number[],
  drawn: (edge: number) => number,
  em: number,
): number[] | undefined {
  const out = [...edges];
  for (let i = 0; i < out.length - 1 && out.length > 2;) {
    const empty = !centres.some((c) => c >= out[i] && c < out[i + 1]);
    if (!empty) {
      i++;
      continue;
    }
    if (out[i + 1] - out[i] >= em * EMPTY_TRACK_EM) return undefined;
    // The inner edge of an outer track; otherwise the less drawn edge.
    const edge = i === 0 ? 1 : i === out.length - 2 ? i : drawn(out[i]) <= drawn(out[i + 1]) ? i : i + 1;
    out.splice(edge, 1);
    if (edge <= i && i > 0) i--;
  }
  return out;
}

/** A gap between words this wide (ems) or wider, down the whole of a ruled column, may part two columns. */
const CORRIDOR_EM = 1;
/** Lines that must have words on both sides of such a gap for it to part columns. */
const CORRIDOR_LINES = 2;

/**
 * Column boundaries inside one drawn column of a grid that the table does not rule: gaps at
 * least CORRIDOR_EM wide that no word of the column crosses, with words on both sides of them
 * on CORRIDOR_LINES or more lines (a header's two words far apart over one column of figures
 * are not two columns, nor are list bullets and their items). Each boundary is the middle of its gap.
 */
export function corridorsIn(words: TextRun[]): number[] {
  if (words.length < 2 * CORRIDOR_LINES) return [];
  const em = median(words.map((word) => word.size));
  const sorted = [...words].sort((a, b) => a.x - b.x);
  const lines = byLine(words);
  const out: number[] = [];
  let reach = sorted[0].x + sorted[0].width;
  for (const word of sorted.slice(1)) {
    if (word.x - reach >= em * CORRIDOR_EM) {
      const x = (reach + word.x) / 2;
      const both = lines.filter(
        (line) => line.some((w) => w.x + w.width <= x && !bullet(w)) && line.some((w) => w.x >= x),
      ).length;
      if (both >= CORRIDOR_LINES) out.push(x);
    }
    reach = Math.max(reach, word.x + word.width);
  }
  return out;
}

const BULLET = new RegExp(`^${BULLET_CHARS}$`);
const bullet = (word: TextRun) => word.mark === true || BULLET.test(word.text);

/** Words grouped by baseline. */
function byLine(words: TextRun[]): TextRun[][] {
  const lines: TextRun[][] = [];
  for (const word of [...words].sort((a, b) => a.y - b.y)) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(line[0].y - word.y) < word.size * 0.3) line.push(word);
    else lines.push([word]);
  }
  return lines;
}

/** Rows a drawn row of a grid must hold, each opened in two or more columns, before its rows are taken as undrawn. */
const STACKED_ROWS = 3;

/**
 * Where rows start inside one drawn row of a grid (`words` in it, `xs` its column edges) that
 * holds rows the table does not rule: a column of names beside columns of figures, the lines
 * of each on the same baselines. A line opens a row when two or more columns, and half of
 * those with text, have a line on its baseline (not a value set midway beside two lines of its
 * row) and fewer than half of them wrap there (see wraps: a long name may look wrapped). Such a drawn row is split only when it holds STACKED_ROWS or more rows, each at
 * the top of its first line; a cell whose text merely wraps, or a header whose labels wrap
 * over two lines, gives none.
 */
export function rowStarts(words: TextRun[], xs: number[]): number[] {
  const columns = xs.slice(0, -1).map((x, c) => {
    const lines = buildLines(
      words.filter((word) => word.x + word.width / 2 >= x && word.x + word.width / 2 < xs[c + 1]),
    );
    return { lines, left: x, right: xs[c + 1] };
  });
  const near = (a: Line, b: Line) => Math.abs(a.y - b.y) < Math.max(a.size, b.size) * 0.3;
  const inked = columns.filter((column) => column.lines.length > 0).length;
  const starts: Line[] = [];
  for (const line of columns.flatMap((column) => column.lines).sort((a, b) => a.y - b.y)) {
    if (starts.some((start) => near(start, line))) continue;
    const here = columns.filter((column) => column.lines.some((other) => near(other, line)));
    const wrapped = here.filter((column) => {
      const i = column.lines.findIndex((other) => near(other, line));
      return i > 0 && wraps(column.lines[i - 1], column.lines[i], column);
    });
    if (here.length >= 2 && here.length * 2 >= inked && wrapped.length * 2 < here.length) starts.push(line);
  }
  if (starts.length < STACKED_ROWS) return [];
  return starts.slice(1).map((line) => line.y - line.size);
}

/** A line this full of its cell's width (or fuller) may have wrapped; a shorter one ended where its text did. */
const FULL_LINE = 0.6;

/**
 * Whether `line` continues the text of `above` in a cell from `left` to `right`: `above` fills
 * most of the cell, and the first word of `line` would not have fitted after it (the cell's
 * padding taken as the space before `above`, at most a size). A line of figures is a value of
 * its own, never the rest of the line above.
 */
function wraps(above: Line, line: Line, cell: { left: number; right: number }): boolean {
  if (FIGURES.test(line.text)) return false;
  const pad = Math.min(Math.max(above.x - cell.left, 0), above.size);
  const room = cell.right - cell.left - 2 * pad;
  if (room <= 0 || above.right - above.x < room * FULL_LINE) return false;
  const first = line.text.trim().split(/\s+/)[0] ?? '';
  const wordWidth = ((line.right - line.x) * first.length) / Math.max(line.text.trim().length, 1);
  return above.right + above.size * 0.25 + wordWidth > cell.right - pad;
}

/** How much of a line is drawn, given its drawn stretches (overlaps counted once). */
export function drawnLength(stretches: number[][]): number {
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of [...stretches].sort((p, q) => p[0] - q[0])) {
    if (b > end) total += b - Math.max(a, end);
    end = Math.max(end, b);
  }
  return total;
}
