import { inked, median, type Line } from './layout';

/**
 * Code set in a fixed-width face: lines whose every glyph is in such a face, two or more in a
 * row (or one standing apart from the text around it), and whose characters are indeed all of
 * one width, become a fenced code block. Their indentation is kept, counted in that width from
 * the block's left edge.
 */

/** Lines further apart than this many line heights are not one block. */
const BLOCK_LEADING = 2;
/** A single line of code stands apart when the text around it is at least this many line heights away. */
const APART = 1.6;

export interface CodeBlock {
  /** The block's lines, indented as set. */
  text: string;
  /** Index just past the block's last line. */
  end: number;
}

/** Every glyph of the line is set in a fixed-width face. */
export function isMono(line: Line): boolean {
  const ink = line.runs.filter((r) => inked(r) && !r.mark);
  return !line.block && ink.length > 0 && ink.every((r) => r.mono === true);
}

/** Marks of program text: brackets, statement ends, assignments, comments. */
const CODE_MARKS = /[{};=<>]|^\s*(#|\/\/)/;
/** In a document set in a fixed-width face throughout, the share of a block's lines that must bear CODE_MARKS. */
const MARKED_SHARE = 1 / 3;

/**
 * The code block that starts at `lines[start]`, if one does; code is not set larger than the
 * body. In a document whose body is set in a fixed-width face (`bodyMono`: a typewritten
 * report), the face says nothing: a block is code only when a third of its lines bear the marks
 * of program text.
 */
export function codeBlockAt(lines: Line[], start: number, bodySize: number, bodyMono = false): CodeBlock | undefined {
  const code = (line: Line) => isMono(line) && line.size <= bodySize * 1.15;
  if (!code(lines[start])) return undefined;
  let end = start + 1;
  while (
    end < lines.length &&
    code(lines[end]) &&
    lines[end].y > lines[end - 1].y &&
    lines[end].y - lines[end - 1].y < lines[end - 1].size * BLOCK_LEADING
  ) {
    end++;
  }
  const block = lines.slice(start, end);
  if (block.length === 1 && !standsApart(lines, start)) return undefined;
  if (bodyMono && block.filter((line) => CODE_MARKS.test(line.text)).length < block.length * MARKED_SHARE)
    return undefined;
  const pitch = pitchOf(block);
  return pitch === undefined ? undefined : { text: indented(block, pitch), end };
}

/** Share by which a fixed-width face's characters may differ in width (rounding, kerning of a run's ends). */
const PITCH_SPREAD = 0.08;

/**
 * The block's character width, when its characters really are of one width. A face named fixed
 * width is not always set so: the invisible text an OCR program lays over a scan is often in
 * Courier, stretched to each word it covers.
 */
function pitchOf(block: Line[]): number | undefined {
  const widths = block.flatMap((l) =>
    l.runs.filter((r) => inked(r) && r.text.length >= 3 && !/\s/.test(r.text)).map((r) => r.width / r.text.length),
  );
  if (widths.length === 0) return undefined;
  const mean = widths.reduce((a, b) => a + b, 0) / widths.length;
  const spread = Math.sqrt(widths.reduce((a, w) => a + (w - mean) ** 2, 0) / widths.length);
  return spread <= mean * PITCH_SPREAD ? median(widths) : undefined;
}

function standsApart(lines: Line[], i: number): boolean {
  const line = lines[i];
  const before = lines[i - 1];
  const after = lines[i + 1];
  const apart = (a: Line, b: Line) => b.y - a.y > Math.max(a.size, b.size) * APART || b.y < a.y;
  return (!before || apart(before, line)) && (!after || apart(line, after));
}

/** The lines indented as set: one space per character width right of the leftmost line. */
function indented(block: Line[], charWidth: number): string {
  const left = Math.min(...block.map((l) => l.x));
  return block.map((l) => ' '.repeat(Math.max(0, Math.round((l.x - left) / charWidth))) + l.text).join('\n');
}
