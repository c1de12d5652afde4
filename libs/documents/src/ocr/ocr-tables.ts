import { contentText, type Cell, type TableBlock } from '@docconv/model';
import { alignedTableAt } from '../pdf/aligned-tables';
import { buildLines, type Line, type TextRun } from '../pdf/layout';
import { ruledTables, withRulesUnder } from '../pdf/lattice';
import { blockLine, tableLine, UNPLACED } from '../pdf/model-blocks';
import { orderLines } from '../pdf/reading-order';
import type { Rule } from '../pdf/rules';

/**
 * A table found on an OCR'd page: its block line, the engine line it is read at (the first it took
 * words from) and the last engine line it took words from.
 */
export interface OcrTable {
  at: number;
  last: number;
  line: Line;
}

/**
 * The tables on an OCR'd page whose words come in the engine's lines (`byLine`, in its reading
 * order), and each line's words that are left. Ruled tables are built from the page's rules
 * (found in its image) and the words inside them, as from a PDF's drawn rules. Aligned tables are
 * found as on a PDF's text layer: the words laid out in lines by baseline, across the engine's
 * lines (an engine may read each cell of a row as a line of its own, a table column by column),
 * in the layout's reading order, when most of their rows hold values side by side (mostlyFilled).
 * The rest of the page keeps the engine's lines and order, which
 * its page segmentation got right where the layout of noisy boxes would not (columns of prose
 * beside pictures).
 */
export function ocrTables(
  byLine: TextRun[][],
  rules: Rule[],
  page: { width: number; height: number },
): { tables: OcrTable[]; lines: TextRun[][] } {
  const { tables: ruled, rest } = ruledTables(rules, byLine.flat());
  // A word with a rule drawn under it is marked so (a header over the columns the rule spans).
  const marked = withRulesUnder(rest, rules);
  const original = new Map(marked.map((run, i) => [run, rest[i]]));
  const laidOut = orderLines({ ...page, lines: buildLines(marked) });
  const aligned: { line: Line; runs: Set<TextRun> }[] = [];
  for (let i = 0; i < laidOut.length; i++) {
    const table = alignedTableAt(laidOut, i);
    if (!table || !table.tables.every(({ rows }) => mostlyFilled(rows))) continue;
    const lines = laidOut.slice(i, table.end);
    const blocks = table.tables.map(({ rows, headerRows }): TableBlock => ({
      type: 'table',
      rows,
      headerRows,
      from: UNPLACED,
    }));
    aligned.push({
      line: blockLine(
        {
          text: lines.map((line) => line.text).join(' '),
          x: Math.min(...lines.map((line) => line.x)),
          right: Math.max(...lines.map((line) => line.right)),
          y: lines[0].y,
          blockTop: Math.min(...lines.map((line) => line.y - line.size)),
          bottom: Math.max(...lines.map((line) => line.y + line.size * 0.25)),
          size: lines[0].size,
          rtl: false,
          runs: [],
          bold: false,
        },
        blocks,
      ),
      runs: new Set(lines.flatMap((line) => line.runs.map((run) => original.get(run) ?? run))),
    });
    i = table.end - 1;
  }
  if (ruled.length === 0 && aligned.length === 0) return { tables: [], lines: byLine };

  const left = new Set(rest);
  const owner = new Map(byLine.flatMap((runs, i) => runs.map((run) => [run, i] as const)));
  // A word split off a run that reached into a ruled table stays on the run's line.
  const lineOf = (run: TextRun) =>
    owner.get(run) ??
    Math.max(
      0,
      byLine.findIndex((runs) => runs.some((r) => r.y === run.y && run.x >= r.x && run.x < r.x + r.width)),
    );
  const taken = new Set(aligned.flatMap((table) => [...table.runs]));
  const lines: TextRun[][] = byLine.map(() => []);
  for (const run of rest) if (!taken.has(run)) lines[lineOf(run)].push(run);
  const placed = (took: (run: TextRun) => boolean, line: Line): OcrTable => {
    const at = byLine.findIndex((runs) => runs.some(took));
    return at < 0
      ? { at: byLine.length, last: byLine.length, line }
      : { at, last: byLine.findLastIndex((runs) => runs.some(took)), line };
  };
  const tables = [
    ...ruled.map((table) =>
      placed(
        (r) =>
          !left.has(r) &&
          r.y >= table.top &&
          r.y - r.size <= table.bottom &&
          r.x < table.right &&
          r.x + r.width > table.left,
        tableLine(table),
      ),
    ),
    ...aligned.map((table) => placed((r) => table.runs.has(r), table.line)),
  ];
  return { tables, lines };
}

/**
 * Whether an aligned table found among an OCR'd page's words holds values side by side: three
 * rows or more, and half its rows, with two filled cells or more. Lines laid out by baseline
 * across an engine's lines also line up where prose meets a caption beside it, or a bullet hangs
 * before its lines; those leave most rows with one cell.
 */
function mostlyFilled(rows: Cell[][]): boolean {
  const full = rows.filter((row) => row.filter((cell) => contentText(cell.content).trim() !== '').length >= 2).length;
  const texts = rows
    .flat()
    .map((cell) => contentText(cell.content).trim())
    .filter((text) => text !== '');
  const length = texts.reduce((n, text) => n + text.length, 0) / Math.max(1, texts.length);
  // Columns of prose side by side hold lines of text, not values.
  return full >= 3 && full * 2 >= rows.length && length <= PROSE_CELL_CHARS;
}

/** Cells this long on average (characters) are lines of prose in columns side by side, not a table's values. */
const PROSE_CELL_CHARS = 24;
