import { BULLET_CHARS, type Line } from './layout';
import type { Typography } from './layout-blocks';

/**
 * Which lines of a page are headings, from evidence: a short line set apart from the body text
 * by size, weight, slant or a section number. A run of such lines is one heading only while it
 * is shaped like one; a run that reads as a paragraph, a list or a sentence is body text set in
 * heading type (a bold abstract, a list in larger type, a sentence that goes on into the body).
 */

/** A list item's marker at the start of a line: a bullet, a number or a letter with `.` or `)`. */
export const BULLET = new RegExp(`^(${BULLET_CHARS})\\s+`);
export const NUMBERED = /^(\(?\d{1,3}[.)]|\(?[a-z][.)])\s+/i;

/** A section number and a title: `1 INTRODUCTION`, `2.1 Template Styles` (a list item's `1.` or `1)` is not one). */
const NUMBERED_HEADING = /^\d{1,2}(?:\.\d{1,2}){0,3}\s+\p{Lu}/u;

/** A section's number opening a line (`3 `, `3.5.2 |`; not a list's `2. `): a heading's, not a sentence's. */
const SECTION_NUMBER = /^\d{1,2}(?:\.\d{1,2}){0,4}\s/;

/** An equation's signs (an `=` not in brackets: `(n = 281)` is a count): a line with them is a formula set large, not a heading. */
const FORMULA = /[∫∑∏√∂∇]|^[^()[\]]*\s=\s/;

/** A heading is at most this many lines… */
const MAX_LINES = 3;
/** …and this many words; one ending as a clause does (`.`, `,`, `;`, `:`) at most SENTENCE_WORDS. */
const MAX_WORDS = 30;
const SENTENCE_WORDS = 6;
/** A run-in heading, italic on a line of its own or opening a paragraph's first line, is at most this many words. */
export const RUN_IN_WORDS = 8;

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Whether `next` goes on from `last` as the next line of one block: below it, less than 1.6 lines down. */
export const wrapsOnto = (last: Line, next: Line): boolean => next.y > last.y && next.y - last.y < next.size * 1.6;

/**
 * The heading level of each of a page's lines (0 for body text). Lines of one level that wrap onto
 * each other are one heading; such a run is dropped back to body text when it is more than
 * MAX_LINES lines or MAX_WORDS words, when it opens with a list item's bullet or is a formula, when it ends as a
 * clause does and is more than a few words, or when its sentence goes on into the body text below.
 */
export function headingLevels(lines: Line[], type: Typography): Map<Line, number> {
  const levels = lines.map((line, i) => headingLevel(line, type) || runInHeadingLevel(lines, i, type));
  for (let start = 0; start < lines.length;) {
    let end = start + 1;
    if (levels[start] > 0) {
      while (end < lines.length && levels[end] === levels[start] && wrapsOnto(lines[end - 1], lines[end])) end++;
      if (!headingShaped(lines.slice(start, end), lines[start - 1], lines[end], levels[end] ?? 0))
        levels.fill(0, start, end);
    }
    start = end;
  }
  return new Map(lines.map((line, i) => [line, levels[i]]));
}

/** Whether a run of heading-type lines is shaped like a heading (see headingLevels); `before` and `next` are the lines around it. */
function headingShaped(group: Line[], before: Line | undefined, next: Line | undefined, nextLevel: number): boolean {
  const text = group.map((line) => line.text).join(' ');
  const count = words(text);
  if (group.length > MAX_LINES || count > MAX_WORDS) return false;
  if (BULLET.test(group[0].text) || FORMULA.test(text)) return false;
  if (/[.,;:]$/.test(text) && count > SENTENCE_WORDS) return false;
  // A sentence that goes on from the line above, or into the line below, in the same size of type, is not a heading.
  const near = (upper: Line, lower: Line) =>
    lower.y > upper.y && lower.y - upper.y < lower.size * 2.5 && Math.abs(lower.size - upper.size) <= 0.5;
  const continues = before !== undefined && !before.block && near(before, group[0]) && !/[.!?:;]$/.test(before.text);
  if (continues && /^\p{Ll}/u.test(group[0].text)) return false;
  const last = group[group.length - 1];
  const goesOn =
    next !== undefined &&
    nextLevel === 0 &&
    !next.block &&
    near(last, next) &&
    !/[.!?:;]$/.test(text) &&
    !SECTION_NUMBER.test(text) &&
    /^\p{Ll}+(?:[\s,;]|$)/u.test(next.text);
  return !goesOn;
}

/**
 * A line's heading level: from `headingLevels` for larger type; below the deepest of those for a
 * short line in body type that is bold, or set apart in another face with a section number (one
 * level per step of the number); 0 for body text.
 */
function headingLevel(line: Line, type: Typography): number {
  const { bodySize, headingLevels } = type;
  if (line.block || line.text.length > 150) return 0;
  if (/^[\d\s.,:%()$€-]+$/.test(line.text)) return 0;
  const bySize = line.size >= bodySize * 1.15 ? headingLevels.get(Math.round(line.size * 2) / 2) : undefined;
  if (bySize !== undefined) return bySize;
  const deepest = Math.max(0, ...headingLevels.values());
  if (
    line.font !== undefined &&
    line.font !== type.bodyFont &&
    line.size >= bodySize - 0.5 &&
    line.text.length <= 80 &&
    NUMBERED_HEADING.test(line.text) &&
    !/[.,;:]$/.test(line.text)
  ) {
    const depth = line.text.split(/\s/)[0].split('.').length;
    return Math.min(deepest + depth, 6);
  }
  // A short bold line in body type, not a sentence or a list item, heads a section below
  // the ones set in larger type.
  if (
    line.bold &&
    line.size >= bodySize - 0.5 &&
    line.text.length <= 100 &&
    !/[.,;:]$/.test(line.text) &&
    !BULLET.test(line.text)
  )
    return Math.min(Math.max(deepest + 1, 2), 4);
  return 0;
}

/**
 * A sub-heading set in italic on a line of its own, in body size: a few words, not a clause,
 * after a paragraph's end (or a gap, or the top of the page), and followed by body text that
 * starts at its left edge. It heads a section below the bold ones.
 */
function runInHeadingLevel(lines: Line[], i: number, type: Typography): number {
  const line = lines[i];
  const before = lines[i - 1];
  const after = lines[i + 1];
  if (!line.italic || line.bold || line.block || Math.abs(line.size - type.bodySize) > 0.5) return 0;
  if (words(line.text) > RUN_IN_WORDS || /[.,;:]$/.test(line.text) || BULLET.test(line.text)) return 0;
  if (!/^\p{Lu}|^\d/u.test(line.text)) return 0;
  const apart =
    before === undefined || before.block !== undefined || !wrapsOnto(before, line) || /[.!?:]$/.test(before.text);
  const body =
    after !== undefined &&
    !after.block &&
    !after.italic &&
    wrapsOnto(line, after) &&
    Math.abs(after.x - line.x) < line.size &&
    Math.abs(after.size - line.size) <= 0.5;
  if (!apart || !body) return 0;
  const deepest = Math.max(0, ...type.headingLevels.values());
  return Math.min(Math.max(deepest + 2, 3), 5);
}
