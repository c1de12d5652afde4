import { buildLines, type PageLines, type TextRun } from '../layout';

/** A text run as pdf.js would give it, half an em wide per character, left to right. */
export const run = (text: string, x: number, y: number, size = 10): TextRun => ({
  text,
  x,
  y,
  width: text.length * size * 0.5,
  size,
  rtl: false,
});

/** A page of the given runs, built into lines as the extractor builds them. */
export function page(runs: TextRun[], width = 600, height = 800): PageLines {
  return { width, height, lines: buildLines(runs) };
}
