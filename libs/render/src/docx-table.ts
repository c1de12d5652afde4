import {
  BorderStyle,
  Paragraph,
  ShadingType,
  Table as DocxTable,
  TableCell,
  TableLayoutType,
  TableRow,
  WidthType,
  type ParagraphChild,
} from 'docx';
import { STYLE } from './docx-styles';
import { runLines, type InlineRun } from './markdown-tree';
import { cellPlacements, formattedRuns, tableGrid, tableWidth, type Table } from './table-model';
import { displayWidth } from './text-width';

const HEADER_SHADING = 'D9E2F3';
const BORDER_COLOR = '8EA9DB';
const BORDER = { style: BorderStyle.SINGLE, size: 4, color: BORDER_COLOR };

/**
 * Width of one character cell of 11 pt body text, in twentieths of a point, and what a capital letter or digit adds.
 * Generous for Calibri, so that readers that show it in a wider font (DejaVu Sans, where Calibri is missing) still
 * fit the words.
 */
const CHARACTER_TWIPS = 125;
const CAPITAL_EXTRA_TWIPS = 30;
/** Bold header text is this much wider. */
const BOLD_FACTOR = 1.08;
/** Word's default left plus right cell margin. */
const CELL_PADDING_TWIPS = 216;
/** No column is narrower than this many characters, unless the table has too many columns to give each as much. */
const MIN_COLUMN_CHARACTERS = 4;
/** A long word (a URL, a path) needs at most this many characters before it may wrap; a header word at most this few. */
const MAX_WORD_CHARACTERS = 24;
const MAX_HEADER_WORD_CHARACTERS = 8;

/** How one line of a cell is written as Word runs: the caller's footnote references and formatting apply. */
export type CellRuns = (line: InlineRun[], header: boolean) => ParagraphChild[];

/**
 * A bordered table with column widths from its content: header rows repeat on each page, bold on a shaded
 * background; merges become spans. Each line of a cell is a paragraph of its own, its runs formatted as the
 * document formats them.
 */
export function docxTable(table: Table, textWidth: number, cellRuns: CellRuns): DocxTable {
  const widths = columnWidths(table, textWidth);
  const placements = cellPlacements(table);
  const rows = tableGrid(table).map((cells, r) => {
    const header = r < table.header.length;
    const children = cells.flatMap((_, c) => {
      const placement = placements[r][c];
      if (placement.kind === 'covered') return [];
      const rowSpan = placement.kind === 'start' ? placement.range.bottom - placement.range.top + 1 : 1;
      const columnSpan = placement.kind === 'start' ? placement.range.right - placement.range.left + 1 : 1;
      const width = widths.slice(c, c + columnSpan).reduce((sum, value) => sum + value, 0);
      return [
        new TableCell({
          children: runLines(formattedRuns(table, r, c)).map(
            (line) => new Paragraph({ style: STYLE.tableText, children: cellRuns(line, header) }),
          ),
          rowSpan: rowSpan > 1 ? rowSpan : undefined,
          columnSpan: columnSpan > 1 ? columnSpan : undefined,
          width: { size: width, type: WidthType.DXA },
          shading: header ? { type: ShadingType.CLEAR, color: 'auto', fill: HEADER_SHADING } : undefined,
        }),
      ];
    });
    return new TableRow({ tableHeader: header || undefined, cantSplit: header || undefined, children });
  });
  return new DocxTable({
    rows,
    width: { size: widths.reduce((sum, value) => sum + value, 0), type: WidthType.DXA },
    columnWidths: widths,
    layout: TableLayoutType.FIXED,
    borders: {
      top: BORDER,
      bottom: BORDER,
      left: BORDER,
      right: BORDER,
      insideHorizontal: BORDER,
      insideVertical: BORDER,
    },
  });
}

/**
 * Column widths in twips that follow the content, the way browsers lay out automatic tables: each column wants
 * room for its longest line and needs room for the longest word of its body (capped, so a URL does not take the
 * page) and a few characters at least. When every column's longest line fits, each gets it; otherwise each gets what
 * it needs plus a share of the space left in proportion to how much more it wants, so a column of short numbers
 * keeps its width and long-text columns wrap. A header word needs a few characters only: a long header over short
 * values may wrap rather than crush a column of prose. When even the needs do not fit, they are scaled down.
 */
export function columnWidths(table: Table, textWidth: number): number[] {
  const { wants, needs } = columnMeasures(table);
  const totalWant = sum(wants);
  if (totalWant <= textWidth) return wants;
  const totalNeed = sum(needs);
  if (totalNeed >= textWidth) return fitTotal(needs, textWidth);
  const share = (textWidth - totalNeed) / (totalWant - totalNeed);
  return fitTotal(
    needs.map((need, c) => need + (wants[c] - need) * share),
    textWidth,
  );
}

/** What each column wants (its longest line) and needs (its longest word, a few characters at least), in twips. */
function columnMeasures(table: Table): { wants: number[]; needs: number[] } {
  const least = MIN_COLUMN_CHARACTERS * CHARACTER_TWIPS;
  const wants = Array<number>(tableWidth(table)).fill(least);
  const needs = Array<number>(tableWidth(table)).fill(least);
  const placements = cellPlacements(table);
  tableGrid(table).forEach((cells, r) =>
    cells.forEach((text, c) => {
      if (placements[r][c].kind !== 'single') return;
      const header = r < table.header.length;
      const longest = (header ? MAX_HEADER_WORD_CHARACTERS : MAX_WORD_CHARACTERS) * CHARACTER_TWIPS;
      for (const line of text.split('\n')) wants[c] = Math.max(wants[c], textTwips(line, header));
      for (const word of text.split(/\s+/)) needs[c] = Math.max(needs[c], Math.min(textTwips(word, header), longest));
    }),
  );
  return {
    wants: wants.map((want) => Math.ceil(want) + CELL_PADDING_TWIPS),
    needs: needs.map((need) => Math.ceil(need) + CELL_PADDING_TWIPS),
  };
}

/** Estimated width of a line of 11 pt text, in twips: wide (Hangul, CJK) characters take two cells. */
function textTwips(text: string, bold: boolean): number {
  const capitals = text.match(/[A-Z0-9]/g)?.length ?? 0;
  const width = displayWidth(text) * CHARACTER_TWIPS + capitals * CAPITAL_EXTRA_TWIPS;
  return bold ? width * BOLD_FACTOR : width;
}

/** Whole-twip widths scaled to add up to the total exactly. */
function fitTotal(widths: number[], total: number): number[] {
  const scale = total / sum(widths);
  const scaled = widths.map((width) => Math.floor(width * scale));
  scaled[scaled.length - 1] += total - sum(scaled);
  return scaled;
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
