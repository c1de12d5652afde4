import type { Block } from '@docconv/model';
import { joinOverlapping } from './glyphs';
import type { Turn } from './turn';
import type { PageLink } from './links';
import { continuesAddress } from '../text/broken-addresses';

/**
 * Page layout from a PDF's text layer: items → lines → columns → blocks (paragraphs,
 * headings, list items, tables), in reading order. Pure functions over positioned text,
 * so they can be tested without a PDF.
 */
export interface TextRun {
  text: string;
  x: number;
  /** Baseline, measured from the top of the page (grows downwards). */
  y: number;
  width: number;
  size: number;
  rtl: boolean;
  /** Set in a bold (or black, heavy, semibold) face. */
  bold?: boolean;
  /** Set in an italic (or oblique) face. */
  italic?: boolean;
  /** Set in a fixed-width face. */
  mono?: boolean;
  /** A glyph drawn as a mark (a symbol font's bullet): at the start of a line it is the line's bullet. */
  mark?: boolean;
  /** Set sideways: the highest point of the text, which runs from here down to `y`. */
  top?: number;
  /** The font's name, without a subset's prefix. */
  font?: string;
  /** The stretch `[x0, x1]` of a rule drawn just under the run (see withRulesUnder). */
  ruledUnder?: [number, number];
}

/** The characters that open a list item as its bullet (a class for a regular expression). */
export const BULLET_CHARS = '[•◦▪▫‣∙·●○■□–—*-]';

/** Figures alone: numbers (a digit at least), with their signs, separators, units and brackets. */
export const FIGURES = /^(?=.*\d)[\s\d.,:;%‰()[\]+\-−–—$€£¥₩*/]+$/;

/**
 * A run split at its spaces into words, each placed by its share of the run's width, so a run
 * that a producer wrote across several cells lands in each of them.
 */
export function words(run: TextRun): TextRun[] {
  // Text set sideways runs down its cell, not across cells.
  if (run.top !== undefined || !/\S\s+\S/.test(run.text) || run.text.length === 0) return [run];
  const perChar = run.width / run.text.length;
  const out: TextRun[] = [];
  for (const match of run.text.matchAll(/\S+/g)) {
    const width = match[0].length * perChar;
    // Right-to-left text starts at the run's right edge.
    const x = run.rtl ? run.x + run.width - match.index * perChar - width : run.x + match.index * perChar;
    out.push({ ...run, text: match[0], x, width });
  }
  return out;
}

/** Whether a run puts something on the page: text, or a mark drawn with a glyph. */
export const inked = (run: TextRun): boolean => run.mark === true || run.text.trim() !== '';

export interface Line {
  text: string;
  x: number;
  right: number;
  y: number;
  size: number;
  rtl: boolean;
  runs: TextRun[];
  /** The OCR engine's paragraph this line belongs to, when it said. */
  paragraph?: string;
  /** Every visible run of the line is bold. */
  bold: boolean;
  /** Every visible run of the line is italic. */
  italic?: boolean;
  /** The font most of the line's characters are set in. */
  font?: string;
  /**
   * The line stands for whole blocks (a ruled table, a figure, a footnote, an OCR'd page's
   * paragraphs, a page not read): their Markdown, which is what the passes over lines read of
   * them. Set with `blocks` by blockLine.
   */
  block?: string;
  /** The model blocks the line stands for (see blockLine); the layout places them. */
  blocks?: Block[];
  /** Where a block ends on the page (its top is `y`). */
  bottom?: number;
  /** Where a block read at its bottom (a figure: `y` is `bottom`) starts on the page. */
  blockTop?: number;
}

export interface PageLines {
  /** The page's (or image frame's) number in its file, from 1. */
  number?: number;
  width: number;
  height: number;
  /** Page units per unit of the original (an image read by OCR is laid out at a scale of its own); 1 when absent. */
  scale?: number;
  /** A sideways page read turned upright: its width, height and lines are the turned page's (see turn.ts). */
  turn?: Turn;
  lines: Line[];
  /**
   * Where the text of a page whose `lines` are one block (an OCR engine's paragraphs) stands:
   * the engine's lines with their boxes, `[left, top, right, bottom]` in page units.
   */
  anchors?: { text: string; box: [number, number, number, number] }[];
  /** The web links drawn over the page's text (see links.ts). */
  links?: PageLink[];
  /** The lines are already in reading order (an OCR engine ordered them). */
  ordered?: boolean;
}

/** Groups runs sharing a baseline into lines, left to right (right to left for RTL lines), top to bottom. */
export function buildLines(runs: TextRun[]): Line[] {
  const kept = withoutOverprint(runs.filter((r) => r.text.trim() !== '' || r.width > 0));
  const groups = byBaseline(kept.filter((r) => r.top === undefined));
  // Text set sideways, grouped by its lowest points (turned column heads standing in a row),
  // joins the line it stands beside (the row of the table's header); the rest are lines of their own.
  const baselines = groups.map((group) => median(group.map((r) => r.y)));
  const alone: TextRun[][] = [];
  for (const turned of byBaseline(kept.filter((r) => r.top !== undefined))) {
    const top = Math.min(...turned.map((r) => r.top!));
    const bottom = Math.max(...turned.map((r) => r.y + r.size * 0.3));
    const middle = (top + bottom) / 2;
    let best = -1;
    for (const [i, y] of baselines.entries()) {
      if (y < top || y > bottom) continue;
      if (best < 0 || Math.abs(y - middle) < Math.abs(baselines[best] - middle)) best = i;
    }
    if (best >= 0) groups[best].push(...turned.map((run) => ({ ...run, y: baselines[best] })));
    else alone.push(turned);
  }
  return [...groups, ...alone]
    .map((group) => toLine(group))
    .filter((line) => line.text.trim() !== '')
    .sort((a, b) => a.y - b.y || a.x - b.x);
}

/** Runs sharing a baseline, grouped top to bottom. */
function byBaseline(runs: TextRun[]): TextRun[][] {
  const groups: TextRun[][] = [];
  for (const run of [...runs].sort((a, b) => a.y - b.y || a.x - b.x)) {
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    if (last && run.y - last.y <= sameLine(last, run)) group.push(run);
    else groups.push([run]);
  }
  return groups;
}

/**
 * How far below `upper`'s baseline `lower`'s may sit on the same line: a third of the type; for
 * smaller type raised above the line (a superscript, a footnote marker) most of the larger
 * type's height, so that `χ²` and `word¹` stay on their line; for smaller type set below it, a
 * subscript's drop only (smaller type a line below is a line of its own).
 */
function sameLine(upper: TextRun, lower: TextRun): number {
  const small = Math.min(upper.size, lower.size);
  const large = Math.max(upper.size, lower.size);
  if (small >= large * 0.85) return Math.max(1.5, small * 0.35);
  return Math.max(1.5, upper.size < lower.size ? large * 0.6 : large * 0.25);
}

/**
 * Runs without the copies that some producers print a hair's breadth off the original to fake
 * a bold face.
 */
function withoutOverprint(runs: TextRun[]): TextRun[] {
  const seen = new Map<string, TextRun[]>();
  return runs.filter((run) => {
    if (run.text.trim() === '') return true;
    const copies = seen.get(run.text);
    if (copies?.some((c) => Math.abs(c.x - run.x) < 1.5 && Math.abs(c.y - run.y) < 1.5)) return false;
    if (copies) copies.push(run);
    else seen.set(run.text, [run]);
    return true;
  });
}

export function toLine(group: TextRun[]): Line {
  // Spaces carry no direction: the line's is that of most of its characters (an Arabic line may
  // end in a few Latin words).
  const texts = group.filter((r) => r.text.trim() !== '');
  const weight = (r: TextRun) => r.text.replace(/\s/g, '').length;
  const rtl =
    texts.filter((r) => r.rtl).reduce((n, r) => n + weight(r), 0) > texts.reduce((n, r) => n + weight(r), 0) / 2;
  const runs = [...group].sort((a, b) => (rtl ? b.x - a.x : a.x - b.x));
  // The line's type is its text's: a bullet glyph or an empty run in another size does not count.
  const glyphs = runs.filter((r) => r.text.trim() !== '' && !r.mark);
  // Size and baseline are those of most of the line's characters: two raised markers after a
  // name do not make the line small type.
  const measured = glyphs.length > 0 ? glyphs : runs;
  const weights = measured.map((r) => Math.max(1, r.text.trim().length));
  const size = weightedMedian(
    measured.map((r) => r.size),
    weights,
  );
  let text = '';
  // Gaps are measured between inked runs: producers often fill a gap with a wide run of spaces.
  let ink: TextRun | undefined;
  for (const [i, run] of runs.entries()) {
    if (!ink && run.mark && i < runs.length - 1) {
      // A glyph bullet opening the line reads as a bullet, whatever codes its font gave it.
      text += '• ';
      ink = run;
      continue;
    }
    const blank = !inked(run);
    if (ink && !blank) {
      const gap = rtl ? ink.x - (run.x + run.width) : run.x - (ink.x + ink.width);
      const joined = gap < 0 && text === text.trimEnd() ? joinOverlapping(text, run.text) : undefined;
      if (joined !== undefined) {
        text = joined;
        ink = run;
        continue;
      }
      if (!text.endsWith(' ') && !run.text.startsWith(' ') && gap > size * 0.15) text += ' ';
    }
    text += run.text;
    if (!blank) ink = run;
  }
  // A line reaches as far as its ink: a run of spaces may stretch across the page.
  const extent = runs.some(inked) ? runs.filter(inked) : runs;
  const left = Math.min(...extent.map((r) => r.x));
  const right = Math.max(...extent.map((r) => r.x + r.width));
  return {
    text: text.replace(/\s+/g, ' ').trim(),
    x: left,
    right,
    y: weightedMedian(
      measured.map((r) => r.y),
      weights,
    ),
    size,
    rtl,
    runs,
    bold: runs.every((r) => r.bold === true || r.text.trim() === ''),
    italic: runs.every((r) => r.italic === true || r.text.trim() === ''),
    font: mainFont(measured),
  };
}

/** The font of most of the runs' characters. */
function mainFont(runs: TextRun[]): string | undefined {
  const weights = new Map<string, number>();
  for (const run of runs) if (run.font) weights.set(run.font, (weights.get(run.font) ?? 0) + run.text.length);
  return [...weights.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** The value at which half the total weight lies on either side. */
function weightedMedian(values: number[], weights: number[]): number {
  const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
  const half = weights.reduce((a, b) => a + b, 0) / 2;
  let seen = 0;
  for (const i of order) {
    seen += weights[i];
    if (seen > half) return values[i];
  }
  return values[order[order.length - 1]] ?? 0;
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Two lines of one paragraph joined: an address broken at the end of the first goes on without a
 * space (see continuesAddress), and a word hyphenated there is mended.
 */
export function mend(text: string, next: string): string {
  if (continuesAddress(text, next)) return text + next;
  if (/[a-zà-ÿ]-$/i.test(text) && /^[a-zà-ÿ]/.test(next)) return text.slice(0, -1) + next;
  return `${text} ${next}`;
}
