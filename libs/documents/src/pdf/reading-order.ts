import { inked, median, toLine, type Line, type PageLines } from './layout';

/**
 * Reading order of a page by recursive XY-cut over its line segments. A page is cut at a
 * column gutter when one runs through it from top to bottom and the text on both sides of it
 * reads as prose (a table's columns are not a page's columns); otherwise it is cut into bands
 * at its widest horizontal whitespace, and each part is ordered the same way. Columns are read
 * left to right (right to left on a right-to-left page), bands top to bottom.
 */

/** Runs of one line further apart than this (in ems of the line's type) are separate segments. */
const SEGMENT_GAP_EM = 1.0;
/** A gutter is at least this wide, in ems of the body type around it. */
const MIN_GUTTER_EM = 0.8;
/** Text shorter than this (characters) on either side of a gap reads as a table cell, not a line of prose. */
const PROSE_CHARS = 20;
/** Boxes sharing this share of the shorter one's height are on one row. */
const ROW_OVERLAP = 0.7;
/** A column of the page holds at least this many lines, unless nothing beside it shares its height. */
const MIN_COLUMN_LINES = 3;

interface Box {
  line: Line;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/**
 * Every line split at its wide gaps: a two-column page's lines, joined across the gutter, come
 * apart here. A superscript or index that came apart from its word (it was set on another
 * column's baseline) goes back to it.
 */
export function segmentLines(lines: Line[]): Line[] {
  return withScriptsAttached(splitAtGaps(lines));
}

function splitAtGaps(lines: Line[]): Line[] {
  return lines.flatMap((line) => {
    if (line.block || line.runs.length < 2) return [line];
    const runs = [...line.runs].sort((a, b) => a.x - b.x);
    const groups = [[runs[0]]];
    let ink = inked(runs[0]) ? runs[0] : undefined;
    for (const run of runs.slice(1)) {
      const blank = !inked(run);
      // Measured from the last inked run: a gap may be filled with a wide run of spaces.
      if (!blank && ink && run.x - (ink.x + ink.width) > line.size * SEGMENT_GAP_EM) groups.push([run]);
      else groups[groups.length - 1].push(run);
      if (!blank) ink = run;
    }
    return groups.length === 1 ? [line] : groups.map((group) => ({ ...toLine(group), paragraph: line.paragraph }));
  });
}

/** Script text: at most three characters in type at least a sixth smaller than the lines around it. */
const SCRIPT_CHARS = 3;
const SCRIPT_SIZE = 0.85;

/**
 * A segment of a few characters in small type, standing alone, joins the segment with a word it
 * follows (ending within an em to its left) and whose baseline lies just below it (a superscript)
 * or just above it (an index).
 */
function withScriptsAttached(segments: Line[]): Line[] {
  const moved = new Set<Line>();
  const joined = new Map<Line, Line>();
  for (const script of segments) {
    if (script.block || script.text.length > SCRIPT_CHARS) continue;
    const host = segments.find(
      (s) =>
        s !== script &&
        !s.block &&
        !moved.has(s) &&
        script.size < s.size * SCRIPT_SIZE &&
        s.runs.some(
          (r) => inked(r) && script.x - (r.x + r.width) > -s.size * 0.2 && script.x - (r.x + r.width) < s.size,
        ) &&
        s.y - script.y < s.size * 0.7 &&
        script.y - s.y < s.size * 0.3,
    );
    if (!host) continue;
    moved.add(script);
    const current = joined.get(host) ?? host;
    joined.set(host, {
      ...toLine([...current.runs, ...script.runs.map((r) => ({ ...r, y: host.y }))]),
      paragraph: host.paragraph,
    });
  }
  return segments.filter((s) => !moved.has(s)).map((s) => joined.get(s) ?? s);
}

function boxOf(line: Line): Box {
  return {
    line,
    x0: line.x,
    x1: Math.max(line.right, line.x + 0.1),
    y0: line.y - (line.block ? 0 : line.size * 0.8),
    y1: Math.max(line.bottom ?? line.y + line.size * 0.2, line.y + 0.1),
  };
}

/** The page's lines in reading order, segments of one row in one reading cell joined back into a line. */
export function orderLines(page: PageLines): Line[] {
  return joinRows(readingOrder(page));
}

/** The page's line segments in reading order, each as it stands. */
export function readingOrder(page: PageLines): Line[] {
  const segments = segmentLines(page.lines);
  const rtl = segments.filter((l) => l.rtl).length > segments.length / 2;
  return order(segments.map(boxOf), rtl);
}

function order(boxes: Box[], rtl: boolean): Line[] {
  if (boxes.length <= 1) return boxes.map((b) => b.line);
  const column = columnCut(boxes);
  if (column !== undefined) {
    const left = boxes.filter((b) => b.x1 <= column);
    const right = boxes.filter((b) => b.x0 >= column);
    return rtl ? [...order(right, rtl), ...order(left, rtl)] : [...order(left, rtl), ...order(right, rtl)];
  }
  const bands = rowBands(boxes);
  if (bands.length > 1) return bands.flatMap((band) => order(band, rtl));
  return [...boxes].sort((a, b) => a.line.y - b.line.y || (rtl ? b.x0 - a.x0 : a.x0 - b.x0)).map((b) => b.line);
}

/** Free stretches between the boxes' extents along one axis, widest first: [start, end]. */
function gaps(boxes: Box[], from: (b: Box) => number, to: (b: Box) => number): [number, number][] {
  const sorted = [...boxes].sort((a, b) => from(a) - from(b));
  const found: [number, number][] = [];
  let reach = to(sorted[0]);
  for (const box of sorted.slice(1)) {
    if (from(box) > reach) found.push([reach, from(box)]);
    reach = Math.max(reach, to(box));
  }
  return found.sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
}

/**
 * The x of a column gutter through every box of the region, or undefined. The gutter must be
 * wide enough, leave text on both sides, and not run between the cells of a table: where rows
 * have text on both sides, most of them must be prose on both sides.
 */
function columnCut(boxes: Box[]): number | undefined {
  const size = median(boxes.filter((b) => !b.line.block).map((b) => b.line.size)) || 10;
  for (const [start, end] of gaps(
    boxes,
    (b) => b.x0,
    (b) => b.x1,
  )) {
    if (end - start < size * MIN_GUTTER_EM) break;
    const left = boxes.filter((b) => b.x1 <= start);
    const right = boxes.filter((b) => b.x0 >= end);
    if (chars(left) < 12 || chars(right) < 12) continue;
    // A few lines beside a few others are as likely a table's columns as the page's: columns have lines.
    if ((rows(left, size) < MIN_COLUMN_LINES || rows(right, size) < MIN_COLUMN_LINES) && overlapping(left, right)) {
      continue;
    }
    if (!tableAcross(left, right, size)) return (start + end) / 2;
  }
  return undefined;
}

/**
 * Whether the two sides of a gap look like the columns of one table: most rows have text on both
 * sides at the same baseline, and next to the gap mostly short cells. (Columns of prose have
 * their own leading; where their baselines meet, their lines are long.)
 */
function tableAcross(left: Box[], right: Box[], size: number): boolean {
  let paired = 0;
  let short = 0;
  for (const l of left) {
    // On one row: most of the shorter box's height shared (a form's label and its value may sit a point or two apart).
    const row = (b: Box) =>
      Math.min(b.y1, l.y1) - Math.max(b.y0, l.y0) >= Math.min(b.y1 - b.y0, l.y1 - l.y0) * ROW_OVERLAP;
    // Each row once, by the pieces that face each other across the gap.
    if (left.some((other) => row(other) && other.x1 > l.x1)) continue;
    const facing = right.filter(row).sort((a, b) => a.x0 - b.x0)[0];
    if (!facing) continue;
    paired++;
    if (l.line.text.length < PROSE_CHARS || facing.line.text.length < PROSE_CHARS) short++;
  }
  return paired >= 3 && paired >= Math.min(rows(left, size), rows(right, size)) * 0.6 && short >= paired * 0.5;
}

/** The region cut at its widest horizontal whitespace (and at every gap nearly as wide), top to bottom. */
function rowBands(boxes: Box[]): Box[][] {
  const found = gaps(
    boxes,
    (b) => b.y0,
    (b) => b.y1,
  );
  if (found.length === 0) return [boxes];
  const widest = found[0][1] - found[0][0];
  const cuts = found
    .filter(([start, end]) => end - start >= widest * 0.75)
    .map(([start, end]) => (start + end) / 2)
    .sort((a, b) => a - b);
  const bands: Box[][] = cuts.map(() => []);
  bands.push([]);
  for (const box of boxes) bands[cuts.filter((c) => c < box.y0).length].push(box);
  return bands.filter((band) => band.length > 0);
}

/** Consecutive segments on one baseline (a table's cells read in a row) become one line again. */
function joinRows(lines: Line[]): Line[] {
  const out: Line[] = [];
  for (const line of lines) {
    const previous = out[out.length - 1];
    if (
      previous &&
      !previous.block &&
      !line.block &&
      Math.abs(previous.y - line.y) < Math.min(previous.size, line.size) * 0.5
    ) {
      out[out.length - 1] = { ...toLine([...previous.runs, ...line.runs]), paragraph: previous.paragraph };
    } else {
      out.push(line);
    }
  }
  return out;
}

const chars = (boxes: Box[]) => boxes.reduce((n, b) => n + b.line.text.length, 0);

/** How many distinct baselines the boxes sit on. */
function rows(boxes: Box[], size: number): number {
  const baselines = boxes.map((b) => b.line.y).sort((a, b) => a - b);
  return baselines.filter((y, i) => i === 0 || y - baselines[i - 1] > size * 0.5).length;
}

/** Whether some box of one side shares height with some box of the other. */
const overlapping = (a: Box[], b: Box[]) => a.some((x) => b.some((y) => x.y0 < y.y1 && y.y0 < x.y1));
