import type { FormattedRun } from '@docconv/model';

/**
 * Runs of formatted text as the renderers cut and trim them. The Markdown parser and the runs it
 * reads are the model's (`@docconv/model`: parseMarkdown, inlineRuns, runsText…).
 */

/** One stretch of inline text with uniform formatting, as the renderers write it. */
export type InlineRun = FormattedRun;

/** Runs cut into lines at their `\n`s: one list of runs per line (an empty line has none). */
export function runLines(runs: InlineRun[]): InlineRun[][] {
  const lines: InlineRun[][] = [[]];
  for (const run of runs) {
    if (run.image) {
      lines[lines.length - 1].push(run);
      continue;
    }
    run.text.split('\n').forEach((text, index) => {
      if (index > 0) lines.push([]);
      if (text !== '') lines[lines.length - 1].push({ ...run, text });
    });
  }
  return lines;
}

/** Drops leading and trailing whitespace of a paragraph (left by removed HTML, for example). */
export function trimRuns(runs: InlineRun[]): InlineRun[] {
  const trimmed = runs.map((run) => ({ ...run }));
  while (trimmed.length > 0 && !trimmed[0].image && trimmed[0].text.trim() === '') trimmed.shift();
  while (trimmed.length > 0 && !trimmed[trimmed.length - 1].image && trimmed[trimmed.length - 1].text.trim() === '')
    trimmed.pop();
  if (trimmed.length === 0) return [];
  if (!trimmed[0].image) trimmed[0].text = trimmed[0].text.trimStart();
  const last = trimmed[trimmed.length - 1];
  if (!last.image) last.text = last.text.trimEnd();
  return trimmed;
}

/** The runs covering characters `start` to `end` (exclusive) of their text, cut where the range cuts them. */
export function sliceRuns(runs: InlineRun[], start: number, end: number): InlineRun[] {
  const out: InlineRun[] = [];
  let at = 0;
  for (const run of runs) {
    const from = Math.max(start, at);
    const to = Math.min(end, at + run.text.length);
    const { image, ...style } = run;
    // A picture cut in part is left as the part of its alt text.
    if (from < to)
      out.push(image && to - from === run.text.length ? run : { ...style, text: run.text.slice(from - at, to - at) });
    at += run.text.length;
  }
  return out;
}
