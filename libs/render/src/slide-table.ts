import { BODY, BODY_LINE_IN, MAX_BODY_LINES } from './slide-layout';
import { sliceRuns, trimRuns, type InlineRun } from './markdown-tree';
import { longestWord, truncateToLines, unitsPerLine, wrapLines } from './slide-text';
import {
  cellPlacements,
  formattedRuns,
  gridSlice,
  tableGrid,
  tableWidth,
  type CellPlacement,
  type CellRange,
  type Table,
} from './table-model';
import { displayWidth } from './text-width';

export interface SlideTableCell {
  text: string;
  /** The text's runs with their formatting (see `formattedRuns`). */
  runs: InlineRun[];
  header: boolean;
  rowspan: number;
  colspan: number;
}

/** A native table: rows of the cells written (positions covered by a span are left out), sizes in inches. */
export interface SlideTable {
  rows: SlideTableCell[][];
  headerRows: number;
  colW: number[];
  rowH: number[];
  fontSize: number;
}

/** A table laid out for slides, before it is cut into the slices each slide shows. */
export interface PreparedTable {
  table: Table;
  colW: number[];
  rowH: number[];
  fontSize: number;
  /** The full text of cells cut short to fit, by grid row, for the speaker notes of the slide showing the row. */
  notes: Map<number, string[]>;
}

/** Font sizes a table may take, largest first; a table steps down until it fits one slide, but not below the floor. */
const TABLE_FONT_STEPS = [14, 12, 11, 10, 9, 8];
const MIN_TABLE_FONT_PT = 9;
/** Cell padding of pptxgenjs tables (its "Normal" margins), top plus bottom and left plus right, in inches. */
export const CELL_PADDING_V_IN = 0.1;
export const CELL_PADDING_H_IN = 0.2;
/**
 * Average glyph width in table cells, as a fraction of the font size: wider than in text boxes, since narrow
 * columns waste more of each line when they wrap and header cells are bold.
 */
const CELL_CHAR_WIDTH_EM = 0.6;
/** Narrowest column, in character units. */
const MIN_COLUMN_UNITS = 3;
/** Leader dots of a printed table of contents ("Preface . . . . . xi"): page layout, not content. */
const LEADER_DOTS = /(?:\s*\.){4,}\s*/g;

/** The body height a slide gives a table, in inches. */
const SLIDE_CAPACITY_IN = MAX_BODY_LINES * BODY_LINE_IN;

/** The largest size a table starts from, by column count, so wide tables stay legible but fit. */
function startingFontSize(columns: number): number {
  if (columns <= 3) return 14;
  if (columns <= 6) return 12;
  if (columns <= 9) return 10;
  return 8;
}

/**
 * Lays a table out for slides: leader dots dropped, then at the largest font size (from its starting size
 * down to the floor) at which the whole table fits on one slide, or at the floor when none does, so a long
 * table takes as few continuation slides as it legibly can. Column widths follow the content.
 */
export function prepareTable(source: Table): PreparedTable {
  const table = withoutLeaders(source);
  const start = startingFontSize(tableWidth(table));
  const sizes = TABLE_FONT_STEPS.filter((size) => size <= start && (size >= MIN_TABLE_FONT_PT || size === start));
  const rowCount = table.header.length + table.rows.length;
  let layout: PreparedTable | null = null;
  for (const size of sizes) {
    const shortest = rowCount * (CELL_PADDING_V_IN + lineHeightIn(size));
    if (shortest > SLIDE_CAPACITY_IN && size !== sizes[sizes.length - 1]) continue;
    layout = layoutTable(table, size);
    if (sum(layout.rowH) <= SLIDE_CAPACITY_IN) break;
  }
  return layout ?? layoutTable(table, start);
}

/**
 * A table of contents without its leader dots (and the lone dot a leader leaves before a page number in the
 * next cell). Its first row is an entry, not a header, even where the Markdown marks it as one, so it is not
 * repeated on every slide.
 */
function withoutLeaders(table: Table): Table {
  const hasLeader = (row: string[]) => row.some((text) => text.search(LEADER_DOTS) >= 0);
  if (!tableGrid(table).some(hasLeader)) return table;
  const clean = (row: string[]) =>
    row.map((text) =>
      text
        .replace(LEADER_DOTS, ' ')
        .replace(/^\.\s+(?=\S+$)/, '')
        .trim(),
    );
  const rows = tableGrid(table).map(clean);
  const headerIsEntry = table.header.some(hasLeader);
  const header = headerIsEntry ? [] : rows.slice(0, table.header.length);
  return { header, rows: rows.slice(header.length), merges: table.merges, runs: table.runs };
}

/** Character units a line of a cell `widthIn` inches wide holds. */
function cellUnits(widthIn: number, fontSize: number): number {
  return unitsPerLine(widthIn - CELL_PADDING_H_IN, fontSize, CELL_CHAR_WIDTH_EM);
}

function lineHeightIn(fontPt: number): number {
  return (fontPt * 1.2) / 72;
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/**
 * The table at one font size: row heights from the wrapped text, and — where a single row would take more
 * than its share of a slide — either the row continued in rows below it (tables without merged cells, so no
 * text is lost) or its cells cut with "…" and their full text kept for the speaker notes.
 */
function layoutTable(source: Table, fontSize: number): PreparedTable {
  const lineIn = lineHeightIn(fontSize);
  const colW = columnWidths(source, fontSize);
  const maxRowIn = SLIDE_CAPACITY_IN / (source.header.length + 2);
  const maxCellLines = Math.max(1, Math.floor((maxRowIn - CELL_PADDING_V_IN) / lineIn));
  const table = source.merges.length === 0 ? withTallRowsSplit(source, colW, fontSize, maxCellLines) : source;
  const placements = cellPlacements(table);
  const grid = tableGrid(table).map((row) => [...row]);
  const rowH = grid.map(() => CELL_PADDING_V_IN + lineIn);
  const notes = new Map<number, string[]>();
  const spanNeeds: { range: CellRange; height: number }[] = [];
  grid.forEach((row, r) =>
    row.forEach((text, c) => {
      const range = rangeOf(placements[r][c], r, c);
      if (!range) return;
      const units = unitsPerLine(
        sum(colW.slice(range.left, range.right + 1)) - CELL_PADDING_H_IN,
        fontSize,
        CELL_CHAR_WIDTH_EM,
      );
      row[c] = truncateToLines(text, units, maxCellLines);
      if (row[c] !== text) notes.set(r, [...(notes.get(r) ?? []), text]);
      const height = CELL_PADDING_V_IN + wrapLines(row[c], units).length * lineIn;
      if (range.bottom === r) rowH[r] = Math.max(rowH[r], height);
      else spanNeeds.push({ range, height });
    }),
  );
  for (const { range, height } of spanNeeds) {
    const spanned = sum(rowH.slice(range.top, range.bottom + 1));
    if (height > spanned) rowH[range.bottom] += height - spanned;
  }
  const laidOut: Table = {
    header: grid.slice(0, table.header.length),
    rows: grid.slice(table.header.length),
    merges: table.merges,
    runs: table.runs,
  };
  return { table: laidOut, colW, rowH, fontSize, notes };
}

/** The cells a position starts (itself, or the span it opens); null for a position another cell's span covers. */
function rangeOf(placement: CellPlacement, r: number, c: number): CellRange | null {
  if (placement.kind === 'covered') return null;
  return placement.kind === 'start' ? placement.range : { top: r, left: c, bottom: r, right: c };
}

/**
 * Column widths in inches across the body width, from the content at this font size: every column gets at
 * least its longest word (when the columns' longest words fit together), and the width left is shared in
 * proportion to how much more each column's longest line would take.
 */
function columnWidths(table: Table, fontSize: number): number[] {
  const grid = tableGrid(table);
  const placements = cellPlacements(table);
  const columns = tableWidth(table);
  const charIn = (fontSize * CELL_CHAR_WIDTH_EM) / 72;
  const natural: number[] = [];
  const minimum: number[] = [];
  for (let c = 0; c < columns; c++) {
    const texts = grid.flatMap((row, r) => (placements[r][c].kind === 'single' ? [row[c]] : []));
    const word = Math.max(MIN_COLUMN_UNITS, ...texts.map(longestWord));
    const widest = Math.max(word, ...texts.flatMap((text) => text.split('\n').map(displayWidth)));
    natural.push(widest * charIn + CELL_PADDING_H_IN);
    minimum.push(word * charIn + CELL_PADDING_H_IN);
  }
  if (sum(natural) <= BODY.w) return scaleTo(natural, BODY.w);
  if (sum(minimum) >= BODY.w) return scaleTo(minimum, BODY.w);
  const extra = BODY.w - sum(minimum);
  const wants = natural.map((width, c) => width - minimum[c]);
  const wanted = sum(wants);
  return minimum.map((width, c) => width + (extra * wants[c]) / wanted);
}

function scaleTo(widths: number[], total: number): number[] {
  const scale = total / sum(widths);
  return widths.map((width) => width * scale);
}

/**
 * The table with body rows whose cells wrap to more than `maxLines` lines split into as many rows as they
 * need: each cell's text (and its runs) continues, `maxLines` lines at a time, in the rows below. A header too
 * tall to repeat on every slide is read as the table's first body rows instead.
 */
function withTallRowsSplit(table: Table, colW: number[], fontSize: number, maxLines: number): Table {
  const linesOf = (text: string, c: number) => wrapLines(text, cellUnits(colW[c], fontSize), 0, maxLines);
  const tallHeader = table.header.some((row) => row.some((text, c) => linesOf(text, c).length > maxLines));
  const header = tallHeader ? [] : table.header;
  const rows: string[][] = [];
  const runs: InlineRun[][][] = header.map((row, r) => row.map((_, c) => formattedRuns(table, r, c)));
  tableGrid(table)
    .slice(header.length)
    .forEach((row, index) => {
      const r = header.length + index;
      const chunks = row.map((text, c) => {
        const starts = wrapLines(text, cellUnits(colW[c], fontSize));
        const cellRuns = formattedRuns(table, r, c);
        const pieces: { text: string; runs: InlineRun[] }[] = [];
        for (let i = 0; i < starts.length; i += maxLines) {
          const end = starts[i + maxLines] ?? text.length;
          pieces.push({ text: text.slice(starts[i], end).trim(), runs: trimRuns(sliceRuns(cellRuns, starts[i], end)) });
        }
        return pieces.length > 0 ? pieces : [{ text, runs: cellRuns }];
      });
      const height = Math.max(...chunks.map((pieces) => pieces.length));
      for (let i = 0; i < height; i++) {
        rows.push(chunks.map((pieces) => pieces[i]?.text ?? ''));
        runs.push(chunks.map((pieces) => pieces[i]?.runs ?? []));
      }
    });
  return { header, rows, merges: [], runs };
}

/** The header rows plus body rows `from` to `to` (grid indexes) as a slide table, with the notes of its rows. */
export function tableSlice(prepared: PreparedTable, from: number, to: number): { table: SlideTable; notes: string[] } {
  const headerRows = prepared.table.header.length;
  const header = gridSlice(prepared.table, 0, headerRows);
  const body = gridSlice(prepared.table, from, to);
  const grid = [...header.grid, ...body.grid];
  const merges = [
    ...header.merges,
    ...body.merges.map((m) => ({ ...m, top: m.top + headerRows, bottom: m.bottom + headerRows })),
  ];
  const runs = header.runs && body.runs ? [...header.runs, ...body.runs] : undefined;
  const sliced: Table = { header: [], rows: grid, merges, runs };
  const placements = cellPlacements(sliced);
  const rows = grid.map((row, r) =>
    row.flatMap((text, c): SlideTableCell[] => {
      const range = rangeOf(placements[r][c], r, c);
      if (!range) return [];
      const cell = { text, runs: formattedRuns(sliced, r, c), header: r < headerRows };
      return [{ ...cell, rowspan: range.bottom - range.top + 1, colspan: range.right - range.left + 1 }];
    }),
  );
  const rowH = [...prepared.rowH.slice(0, headerRows), ...prepared.rowH.slice(from, to)];
  const noteRows = [...(from === headerRows ? range(0, headerRows) : []), ...range(from, to)];
  const notes = noteRows.flatMap((row) => prepared.notes.get(row) ?? []);
  return { table: { rows, headerRows, colW: prepared.colW, rowH, fontSize: prepared.fontSize }, notes };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}
