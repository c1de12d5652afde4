/**
 * The ruling lines of a page image (a scanned table's grid, an underline, a box around a note),
 * and the image with them taken out. A text detector reads the words of a ruled table poorly
 * where they touch its lines (a figure next to a column rule is lost or read as part of it), so
 * the rules are found first, painted white, and handed on beside the reading: the layout builds
 * the table's grid from them, as it does from a PDF's drawn rules.
 *
 * A rule is a straight run of ink, horizontal or vertical, long and thin: at least MIN_LENGTH of
 * the page's width long (a vertical one from a horizontal rule to another, MIN_BRIDGING_LENGTH)
 * and at most MAX_THICKNESS of it thick, and not one of three or more lines side by side
 * (HATCHING). A line of text never makes one (its letters leave gaps), nor does a
 * photograph (its dark areas are thick, its edges hatching).
 */
import type { GreyImage } from './engine';
import { darkGreys } from './page-ink';

/** A ruling line in pixels of the image: horizontal when y0 === y1, vertical when x0 === x1. */
export interface ImageRule {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A rule is at least this share of the page's width long (half an inch of a letter-size page). */
const MIN_LENGTH = 1 / 17;
/**
 * A vertical run this share of the page's width long (a tenth of an inch) or longer is a rule,
 * though shorter than MIN_LENGTH, when each of its ends meets a horizontal rule: the side of a
 * cell in a table of one or two rows. A letter's stem stands clear of the rules around it. So is
 * one with an end on a horizontal rule that carries on a column's side from across it: the side
 * of a last row the table leaves open.
 */
const MIN_BRIDGING_LENGTH = 1 / 80;
/** A rule is at most this share of the page's width thick (3 pt of a letter-size page); thicker ink is a filled area. */
const MAX_THICKNESS = 1 / 200;
/** Gaps in a run this share of the page's width or shorter are bridged (a scanned line breaks here and there). */
const BRIDGE = 1 / 1000;
/** A rule's ink is painted out with this share of the page's width beside it: its blurred, lighter edges. */
const EDGE = 1 / 1000;

/**
 * Parallel lines each closer than this share of the page's width to the next (6 pt of a
 * letter-size page, less than a table's row) are hatching when three or more run side by side:
 * the edges in a photograph, a shaded drawing. A doubled rule is two.
 */
const HATCHING = 1 / 100;

/** A run of ink along one row (or column) of pixels. */
interface Run {
  at: number;
  from: number;
  to: number;
}

/** A band of runs in neighbouring rows (or columns), growing into a rule. */
interface Band {
  first: number;
  last: number;
  from: number;
  to: number;
  runs: Run[];
}

/** The image's rules, and a copy of the image with their ink painted white (the image itself when it has none). */
export function liftRules(image: GreyImage): { image: GreyImage; rules: ImageRule[] } {
  const { width, height, data } = image;
  const dark = darkGreys(data);
  const ink = (x: number, y: number) => dark[data[y * width + x]] === 1;
  const length = Math.max(8, Math.round(width * MIN_LENGTH));
  const thickness = Math.max(2, Math.round(width * MAX_THICKNESS));
  const bridge = Math.max(1, Math.round(width * BRIDGE));
  const near = Math.max(4, Math.round(width * HATCHING));
  const thin = (band: Band) => band.last - band.first + 1 <= thickness;
  const horizontal = unhatched(bands(height, width, (row, x) => ink(x, row), length, bridge).filter(thin), near);
  const long = unhatched(bands(width, height, (column, y) => ink(column, y), length, bridge).filter(thin), near);
  // A table of a row or two has sides shorter than a rule: runs from one horizontal rule to another are rules too.
  const short = Math.max(8, Math.round(width * MIN_BRIDGING_LENGTH));
  // Its ends reach into the rule (gaps bridged, as along a run); its place may stand past the rule's end by a rule's thickness.
  const reach = thickness + bridge;
  const meets = (band: Band, end: number) =>
    horizontal.some(
      (rule) =>
        rule.first - bridge <= end &&
        end <= rule.last + bridge &&
        rule.from - reach <= band.first &&
        band.last <= rule.to + reach,
    );
  const shorter =
    horizontal.length < 2
      ? []
      : bands(width, height, (column, y) => ink(column, y), short, bridge).filter(
          (band) => thin(band) && band.to - band.from + 1 < length,
        );
  const sides = [...long, ...shorter.filter((band) => meets(band, band.from) && meets(band, band.to))];
  // A column's rule goes on past the table's last horizontal rule into a row left open at the
  // bottom (a total under a double rule), or its first: a short run from a horizontal rule, in
  // line with a side that ends at that rule (across a doubled rule's gap).
  const inLine = (side: Band, band: Band) => Math.abs(side.first + side.last - band.first - band.last) <= 2 * reach;
  const hangs = (band: Band) =>
    meets(band, band.from) &&
    sides.some((side) => inLine(side, band) && side.to <= band.from + bridge && band.from - side.to <= near);
  const stands = (band: Band) =>
    meets(band, band.to) &&
    sides.some((side) => inLine(side, band) && side.from >= band.to - bridge && side.from - band.to <= near);
  const vertical = [...sides, ...shorter.filter((band) => !sides.includes(band) && (hangs(band) || stands(band)))];
  if (horizontal.length === 0 && vertical.length === 0) return { image, rules: [] };
  // Each run is painted with its blurred edges: left grey, they read as a stroke (`836 |`).
  const edge = Math.max(1, Math.round(width * EDGE));
  const cleaned = Buffer.from(data);
  for (const band of horizontal) {
    for (const run of band.runs) {
      for (let y = Math.max(0, run.at - edge); y <= Math.min(height - 1, run.at + edge); y++)
        cleaned.fill(255, y * width + run.from, y * width + run.to + 1);
    }
  }
  for (const band of vertical) {
    for (const run of band.runs) {
      const [from, to] = [Math.max(0, run.at - edge), Math.min(width - 1, run.at + edge)];
      for (let y = run.from; y <= run.to; y++) cleaned.fill(255, y * width + from, y * width + to + 1);
    }
  }
  const middle = (band: Band) => (band.first + band.last + 1) / 2;
  return {
    image: { width, height, data: cleaned },
    rules: [
      ...horizontal.map((band) => ({ x0: band.from, y0: middle(band), x1: band.to + 1, y1: middle(band) })),
      ...vertical.map((band) => ({ x0: middle(band), y0: band.from, x1: middle(band), y1: band.to + 1 })),
    ],
  };
}

/**
 * The bands that are not hatching: bands joined to the next when within `near` pixels of it and
 * overlapping it by half the shorter; a chain of three or more is dropped whole.
 */
function unhatched(found: Band[], near: number): Band[] {
  const middle = (band: Band) => (band.first + band.last) / 2;
  const sorted = [...found].sort((a, b) => middle(a) - middle(b));
  const chain = new Map<Band, Band[]>(sorted.map((band) => [band, [band]]));
  for (const [i, band] of sorted.entries()) {
    for (let j = i + 1; j < sorted.length && middle(sorted[j]) - middle(band) <= near; j++) {
      const other = sorted[j];
      const overlap = Math.min(band.to, other.to) - Math.max(band.from, other.from);
      if (overlap < Math.min(band.to - band.from, other.to - other.from) / 2) continue;
      const [mine, theirs] = [chain.get(band)!, chain.get(other)!];
      if (mine === theirs) continue;
      mine.push(...theirs);
      for (const member of theirs) chain.set(member, mine);
    }
  }
  return found.filter((band) => chain.get(band)!.length < 3);
}

/**
 * The bands of long runs of ink across `lines` lines of `span` pixels each (`ink(line, i)`): runs
 * at least `length` long, gaps of `bridge` pixels bridged, and the runs of neighbouring lines that
 * overlap by half the shorter joined into one band.
 */
function bands(
  lines: number,
  span: number,
  ink: (line: number, i: number) => boolean,
  length: number,
  bridge: number,
): Band[] {
  const done: Band[] = [];
  let open: Band[] = [];
  for (let line = 0; line < lines; line++) {
    const runs: Run[] = [];
    let start = -1;
    let last = -1;
    for (let i = 0; i <= span; i++) {
      const inked = i < span && ink(line, i);
      if (inked) {
        if (start < 0) start = i;
        last = i;
      } else if (start >= 0 && (i === span || i - last > bridge)) {
        if (last - start + 1 >= length) runs.push({ at: line, from: start, to: last });
        start = -1;
      }
    }
    const next: Band[] = [];
    for (const run of runs) {
      const band = open.find(
        (b) =>
          b.last === line - 1 &&
          Math.min(b.to, run.to) - Math.max(b.from, run.from) >= Math.min(b.to - b.from, run.to - run.from) / 2,
      );
      if (band) {
        band.last = line;
        band.from = Math.min(band.from, run.from);
        band.to = Math.max(band.to, run.to);
        band.runs.push(run);
        if (!next.includes(band)) next.push(band);
      } else {
        next.push({ first: line, last: line, from: run.from, to: run.to, runs: [run] });
      }
    }
    done.push(...open.filter((band) => !next.includes(band)));
    open = next;
  }
  return [...done, ...open];
}
