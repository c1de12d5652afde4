/**
 * Lines for engines that report only a quadrilateral and a text per line (PaddleOCR, EasyOCR):
 * axis-aligned boxes, estimated word boxes, and our own reading order, since both engines
 * return lines in an order that interleaves the columns of a page.
 */
import type { Box, OcrLine, OcrWord } from './engine';

/** A corner of a detector's quadrilateral, `[x, y]` in image pixels. */
export type Corner = readonly number[];

/**
 * The axis-aligned box around a quadrilateral, rounded outwards to whole pixels and clipped to
 * an image of `width` × `height`.
 */
export function boxAround(corners: readonly Corner[], width: number, height: number): Box {
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  const x0 = clamp(Math.floor(Math.min(...xs)), 0, width);
  const y0 = clamp(Math.floor(Math.min(...ys)), 0, height);
  const x1 = clamp(Math.ceil(Math.max(...xs)), 0, width);
  const y1 = clamp(Math.ceil(Math.max(...ys)), 0, height);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * A line from its text, box and confidence (0…100). The engine gives no word boxes, so each
 * space-separated word gets the share of the line's width its characters take in the text.
 */
export function lineFromText(text: string, box: Box, confidence: number): OcrLine {
  const characterWidth = text.length > 0 ? box.width / text.length : 0;
  const words: OcrWord[] = [...text.matchAll(/\S+/g)].map((match) => ({
    text: match[0],
    confidence,
    box: {
      x: Math.round(box.x + (match.index ?? 0) * characterWidth),
      y: box.y,
      width: Math.round(match[0].length * characterWidth),
      height: box.height,
    },
  }));
  return { text, box, confidence, words };
}

/**
 * Lines in reading order. The page is cut recursively along its widest blank band (XY-cut): a
 * blank stretch across the whole region, between rows of text (at least CUT_ACROSS line heights
 * tall), or down its whole height between columns (at least CUT_DOWN line heights wide), whichever
 * is wider relative to those sizes; the parts are read top to bottom, or left to right. A region
 * with no such band is read by orderBands. Line heights are the page's median, so the cuts do not
 * depend on which region a line ends up in.
 */
export function orderLines(lines: readonly OcrLine[]): OcrLine[] {
  const heights = lines.map((line) => line.box.height).sort((a, b) => a - b);
  const height = heights[Math.floor(heights.length / 2)] ?? 0;
  return height > 0 ? xyCut(lines, height) : orderBands(lines);
}

/** Blank bands this many line heights tall split a region into parts read top to bottom. */
const CUT_ACROSS = 0.8;
/** Blank bands this many line heights wide split a region into columns read left to right. */
const CUT_DOWN = 1.0;

function xyCut(lines: readonly OcrLine[], height: number): OcrLine[] {
  if (lines.length <= 1) return [...lines];
  const across = widestGap(
    lines.map((line) => [line.box.y, bottom(line.box)]),
    CUT_ACROSS * height,
  );
  const down = widestGap(
    lines.map((line) => [line.box.x, rightEdge(line.box)]),
    CUT_DOWN * height,
  );
  const acrossStrength = across ? across.size / CUT_ACROSS : 0;
  const downStrength = down ? down.size / CUT_DOWN : 0;
  if (!across && !down) return orderBands(lines);
  // The first part: left of a cut down the region, or above a cut across it.
  const first =
    downStrength > acrossStrength
      ? (line: OcrLine) => line.box.x < down!.at
      : (line: OcrLine) => line.box.y < across!.at;
  return [
    ...xyCut(
      lines.filter((line) => first(line)),
      height,
    ),
    ...xyCut(
      lines.filter((line) => !first(line)),
      height,
    ),
  ];
}

/**
 * The widest blank stretch between the intervals (`[start, end)`) at least `least` long: where it
 * ends (the first interval after it starts there) and how long it is; undefined when none is.
 */
function widestGap(intervals: [number, number][], least: number): { at: number; size: number } | undefined {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let reach = sorted[0][1];
  let best: { at: number; size: number } | undefined;
  for (const [start, end] of sorted.slice(1)) {
    const size = start - reach;
    if (size >= least && (!best || size > best.size)) best = { at: start, size };
    reach = Math.max(reach, end);
  }
  return best;
}

/**
 * Lines in reading order: columns top to bottom, left to right, within bands of the page.
 *
 * Lines are taken row by row from the top. A line that reaches across a gutter right above or
 * below it (a gap between side-by-side lines that another row leaves open too) is a title,
 * heading or paragraph over several columns: it is read on its own and ends the band above it.
 * Inside a band a line joins the column whose last line (specks aside) it overlaps most
 * horizontally, else the one column any of whose lines it overlaps. A line that fits no single column starts a new
 * column beside the others when it begins above the band's lowest line (a caption between
 * columns), and a new band below them otherwise. Each band is read column by column, columns
 * ordered by their left edge.
 *
 * The result depends only on the lines' boxes, not on the order they come in. Cells of a table
 * are read down each column, like the columns of a page.
 */
function orderBands(lines: readonly OcrLine[]): OcrLine[] {
  const spanning = linesCrossingGutters(lines);
  const ordered: OcrLine[] = [];
  let band: OcrLine[][] = [];
  const closeBand = () => {
    ordered.push(...readBand(band));
    band = [];
  };
  for (const line of rowOrder(lines)) {
    if (spanning.has(line)) {
      closeBand();
      ordered.push(line);
      continue;
    }
    const column = columnFor(band, line);
    if (column) column.push(line);
    else if (band.length > 0 && line.box.y < bandBottom(band)) band.push([line]);
    else {
      closeBand();
      band.push([line]);
    }
  }
  closeBand();
  return ordered;
}

/**
 * The column a line continues: the one whose last line it overlaps most horizontally, else the
 * only one that any of whose lines it overlaps.
 */
function columnFor(band: OcrLine[][], line: OcrLine): OcrLine[] | undefined {
  let best: OcrLine[] | undefined;
  let bestOverlap = 0;
  for (const column of band) {
    const overlap = horizontalOverlap(lastLine(column).box, line.box);
    if (overlap > bestOverlap) [best, bestOverlap] = [column, overlap];
  }
  if (best) return best;
  const touched = band.filter((column) => column.some((member) => horizontalOverlap(member.box, line.box) > 0));
  return touched.length === 1 ? touched[0] : undefined;
}

/**
 * A column's last line at least two characters wide (twice as wide as tall): a speck of dirt or
 * a stray mark read as a line says little about where the column runs.
 */
function lastLine(column: OcrLine[]): OcrLine {
  return column.findLast((member) => member.box.width >= 2 * member.box.height) ?? column[column.length - 1];
}

/**
 * Lines sorted top to bottom, where lines whose vertical middle lies within the height of the
 * first line of a row count as one row and are sorted left to right. This keeps lines of one row
 * in order on a slightly skewed scan.
 */
function rowOrder(lines: readonly OcrLine[]): OcrLine[] {
  const byTop = [...lines].sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
  const ordered: OcrLine[] = [];
  let row: OcrLine[] = [];
  for (const line of byTop) {
    if (row.length > 0 && middle(line.box) >= bottom(row[0].box)) {
      ordered.push(...row.sort((a, b) => a.box.x - b.box.x || a.box.y - b.box.y));
      row = [];
    }
    row.push(line);
  }
  ordered.push(...row.sort((a, b) => a.box.x - b.box.x || a.box.y - b.box.y));
  return ordered;
}

/** The horizontal gap between a line and its nearest neighbour to the right on the same row. */
interface Gap {
  left: OcrLine;
  right: OcrLine;
  /** Where the gap starts and ends horizontally: the left line's right edge, the right line's left edge. */
  from: number;
  to: number;
}

/**
 * Lines that reach over two columns: across a gutter whose two lines are right above or below
 * them. A gutter is a gap between side-by-side lines that a row close above or below leaves open
 * too; a single wide gap inside one line (a tab, a dotted leader the detector split at) is not
 * one. A line with text on both sides on its own row sits between columns (a caption), not over
 * them.
 */
function linesCrossingGutters(lines: readonly OcrLine[]): Set<OcrLine> {
  const gaps = sideBySideGaps(lines);
  const gutters = gaps.filter((gap) => gaps.some((other) => continuesGutter(gap, other)));
  const flanked = (line: OcrLine) => gaps.some((gap) => gap.left === line) && gaps.some((gap) => gap.right === line);
  return new Set(
    lines.filter(
      (line) =>
        !flanked(line) &&
        gutters.some(
          (gap) =>
            line !== gap.left &&
            line !== gap.right &&
            line.box.x < gap.from &&
            rightEdge(line.box) > gap.to &&
            nextToEachOther(line, gap.left, lines) &&
            nextToEachOther(line, gap.right, lines),
        ),
    ),
  );
}

/** Whether no third line that overlaps both horizontally lies between two lines vertically. */
function nextToEachOther(a: OcrLine, b: OcrLine, lines: readonly OcrLine[]): boolean {
  const [top, bottomMost] =
    middle(a.box) <= middle(b.box) ? [middle(a.box), middle(b.box)] : [middle(b.box), middle(a.box)];
  return !lines.some(
    (other) =>
      other !== a &&
      other !== b &&
      middle(other.box) > top &&
      middle(other.box) < bottomMost &&
      horizontalOverlap(other.box, a.box) > 0 &&
      horizontalOverlap(other.box, b.box) > 0,
  );
}

/**
 * For each line, the gap to the nearest line on its right that shares most of its height (at
 * least half of the smaller line's height) without touching it.
 */
function sideBySideGaps(lines: readonly OcrLine[]): Gap[] {
  const gaps: Gap[] = [];
  for (const left of lines) {
    let nearest: OcrLine | undefined;
    for (const right of lines) {
      if (right.box.x <= rightEdge(left.box) || !shareRow(left.box, right.box)) continue;
      if (!nearest || right.box.x < nearest.box.x) nearest = right;
    }
    if (nearest) gaps.push({ left, right: nearest, from: rightEdge(left.box), to: nearest.box.x });
  }
  return gaps;
}

/** Whether a gap of another row at most three line heights away overlaps this one. */
function continuesGutter(gap: Gap, other: Gap): boolean {
  if (shareRow(gap.left.box, other.left.box)) return false;
  const distance = Math.abs(middle(gap.left.box) - middle(other.left.box));
  const lineHeight = Math.max(gap.left.box.height, other.left.box.height);
  return distance <= 3 * lineHeight && Math.max(gap.from, other.from) < Math.min(gap.to, other.to);
}

/** A band's columns left to right by their leftmost edge, each top to bottom. */
function readBand(columns: OcrLine[][]): OcrLine[] {
  const leftEdge = (column: OcrLine[]) => Math.min(...column.map((line) => line.box.x));
  return [...columns].sort((a, b) => leftEdge(a) - leftEdge(b)).flat();
}

function bandBottom(columns: OcrLine[][]): number {
  return Math.max(...columns.flat().map((line) => bottom(line.box)));
}

function shareRow(a: Box, b: Box): boolean {
  const overlap = Math.min(bottom(a), bottom(b)) - Math.max(a.y, b.y);
  return overlap >= Math.min(a.height, b.height) / 2;
}

/** How many pixels two boxes share horizontally (0 when they do not overlap). */
function horizontalOverlap(a: Box, b: Box): number {
  return Math.max(0, Math.min(rightEdge(a), rightEdge(b)) - Math.max(a.x, b.x));
}

function rightEdge(box: Box): number {
  return box.x + box.width;
}

function bottom(box: Box): number {
  return box.y + box.height;
}

function middle(box: Box): number {
  return box.y + box.height / 2;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
