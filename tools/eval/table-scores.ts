/**
 * Table scores as a reader sees them: structure exactness (the same grid with the same texts),
 * cell-content and cell-adjacency F1, detection, and their pooling over several documents.
 */
import { normalise } from './metrics';
import type { Table } from './tables';
import { EXACT_TED_LIMIT, teds } from './teds';

/** Whether any cell of a table holds text, as text similarity normalises it. */
export function tableHasText(table: Table): boolean {
  return table.rows.some((row) => row.some((cell) => normalise(cell.text) !== ''));
}

/**
 * Whether two tables are the same grid with the same texts: as many rows, as many cells in each
 * row, every cell with the same row and column span and the same words (`cellWords`). A row
 * span reaching past the table's last row ends there, as a browser lays it out. Header flags do
 * not count.
 */
export function sameTable(prediction: Table, reference: Table): boolean {
  const height = reference.rows.length;
  return (
    prediction.rows.length === height &&
    prediction.rows.every((row, r) => {
      const other = reference.rows[r];
      return (
        row.length === other.length &&
        row.every(
          (cell, c) =>
            Math.min(cell.rowspan, height - r) === Math.min(other[c].rowspan, height - r) &&
            cell.colspan === other[c].colspan &&
            cellWords(cell.text) === cellWords(other[c].text),
        )
      );
    })
  );
}

/**
 * A cell's words as text similarity normalises them (case, spacing and punctuation aside), the
 * markers of the list items it holds (`•`, `-`, `1.`) aside: a list in a cell reads the same
 * whether its numbers are written out or left to the page.
 */
export function cellWords(text: string): string {
  return normalise(text.replace(/<br\s*\/?>/gi, '\n').replace(/^[ \t]*(?:[•◦▪‣*+-]|\d{1,3}[.)])[ \t]+/gm, ''));
}

export interface StructureExactness {
  /** Per reference table, in order: whether a predicted table matches it exactly; null when it does not count. */
  exact: (boolean | null)[];
  /** Reference tables that count: those with text. */
  counted: number;
  /** Of those, the ones matched exactly. */
  matched: number;
}

/**
 * Table structure exactness: which reference tables have a predicted table with the same grid
 * (rows, columns, every cell's spans) and the same normalised cell texts (see sameTable). Tables
 * are paired as matchTables pairs them (greedily, best TEDS first, each used once); an identical
 * table scores TEDS 1, so it is always paired with its twin when there is one. `matchTables`'s
 * own `exact` says something else: that the tree edit distance was computed exactly rather than
 * by row alignment.
 *
 * A reference table without any text does not count, neither matched nor missed: an all-empty
 * grid is a placeholder (Hancom's export draws such a table as empty boxes, as in the format
 * sample's 2×2 table whose cells hold nothing), and a reader that drops it loses nothing a
 * reader could read, while one that keeps it is not wrong either. Undefined when no reference
 * table counts.
 */
export function structureExactness(
  predictions: Table[],
  references: Table[],
  match: TableMatch | undefined = matchTables(predictions, references),
): StructureExactness | undefined {
  const exact = references.map((reference, r) => {
    if (!tableHasText(reference)) return null;
    const p = match?.paired[r] ?? -1;
    return p >= 0 && sameTable(predictions[p], reference);
  });
  const counted = exact.filter((e) => e !== null).length;
  if (counted === 0) return undefined;
  return { exact, counted, matched: exact.filter((e) => e === true).length };
}

// ---------------------------------------------------------------------------------------------
// Table scores as a reader sees them: cells, adjacency, grid and detection

/** A table's cells placed on its grid: `slots[r][c]` is the index in `cells` of the cell covering that slot, or -1. */
interface Grid {
  cells: { text: string; row: number; col: number; rowspan: number; colspan: number }[];
  slots: number[][];
}

/** Lays a table's cells on their grid as HTML does: each cell takes the next slot its row leaves free. */
function layOut(table: Table): Grid {
  const slots: number[][] = [];
  const cells: Grid['cells'] = [];
  const slotRow = (r: number): number[] => (slots[r] ??= []);
  table.rows.forEach((row, r) => {
    let col = 0;
    for (const cell of row) {
      while (slotRow(r)[col] !== undefined && slotRow(r)[col] >= 0) col++;
      const index = cells.length;
      cells.push({ text: normalise(cell.text), row: r, col, rowspan: cell.rowspan, colspan: cell.colspan });
      for (let dr = 0; dr < cell.rowspan; dr++) {
        for (let dc = 0; dc < cell.colspan; dc++) slotRow(r + dr)[col + dc] = index;
      }
      col += cell.colspan;
    }
  });
  const width = Math.max(0, ...slots.map((row) => row.length));
  for (let r = 0; r < slots.length; r++) {
    const row = slotRow(r);
    for (let c = 0; c < width; c++) if (row[c] === undefined) row[c] = -1;
  }
  return { cells, slots };
}

/** The F1 of two multisets of strings: twice the shared count over the sum of their sizes (1 when both are empty). */
function multisetF1(a: readonly string[], b: readonly string[]): number {
  if (a.length + b.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const x of a) counts.set(x, (counts.get(x) ?? 0) + 1);
  let shared = 0;
  for (const y of b) {
    const n = counts.get(y) ?? 0;
    if (n > 0) {
      shared++;
      counts.set(y, n - 1);
    }
  }
  return (2 * shared) / (a.length + b.length);
}

/** The normalised texts of a table's non-empty cells, a spanning cell once. */
export function cellTexts(table: Table): string[] {
  return table.rows.flatMap((row) => row.map((cell) => normalise(cell.text)).filter((text) => text !== ''));
}

/**
 * Cell-content F1 of a predicted table against a reference: the multisets of their non-empty
 * cells' normalised texts (case, spacing and punctuation aside) compared whole, so a value split
 * over two cells, or two values merged into one, counts as wrong.
 */
export function cellContentF1(prediction: Table, reference: Table): number {
  return multisetF1(cellTexts(prediction), cellTexts(reference));
}

/**
 * The adjacency relations of a table, as the ICDAR 2013 Table Competition scores structure
 * (Göbel et al. 2012): every non-empty cell with its nearest non-empty neighbour to the right
 * along each row it spans, and below along each column it spans, empty cells skipped; each
 * relation as `direction, text, text` of the normalised texts.
 */
export function adjacencyRelations(table: Table): string[] {
  const { cells, slots } = layOut(table);
  const relations = new Set<string>();
  const found: string[] = [];
  const add = (from: number, to: number, direction: 'right' | 'below') => {
    const key = `${from}\u0000${to}\u0000${direction}`;
    if (relations.has(key)) return;
    relations.add(key);
    found.push(`${direction}\u0000${cells[from].text}\u0000${cells[to].text}`);
  };
  cells.forEach((cell, index) => {
    if (cell.text === '') return;
    for (let r = cell.row; r < cell.row + cell.rowspan && r < slots.length; r++) {
      for (let c = cell.col + cell.colspan; c < slots[r].length; c++) {
        const next = slots[r][c];
        if (next >= 0 && next !== index && cells[next].text !== '') {
          add(index, next, 'right');
          break;
        }
      }
    }
    for (let c = cell.col; c < cell.col + cell.colspan; c++) {
      for (let r = cell.row + cell.rowspan; r < slots.length; r++) {
        const next = slots[r][c] ?? -1;
        if (next >= 0 && next !== index && cells[next].text !== '') {
          add(index, next, 'below');
          break;
        }
      }
    }
  });
  return found;
}

/** Cell-adjacency F1 of a predicted table against a reference (see adjacencyRelations). */
export function adjacencyF1(prediction: Table, reference: Table): number {
  return multisetF1(adjacencyRelations(prediction), adjacencyRelations(reference));
}

/** A paired table's cell-content F1 at or above this counts as the reference table found (detected). */
export const DETECTED_AT = 0.5;

export interface ReferenceTableScore {
  /** Index of the predicted table paired with it, or -1. */
  paired: number;
  cellF1: number;
  adjacencyF1: number;
  teds: number;
  /** The paired table has the same grid, spans and normalised cell texts (sameTable). */
  exact: boolean;
  /** The paired table's cell-content F1 reaches DETECTED_AT. */
  detected: boolean;
}

export interface TableScores {
  /** Per reference table with text, in order. */
  tables: ReferenceTableScore[];
  /** Predicted tables with text. */
  predicted: number;
  /** Of those, the ones paired with a reference table they detect. */
  truePositives: number;
  /** Detected reference tables over reference tables; predicted tables that detect one over predicted tables (1 when none). */
  recall: number;
  precision: number;
  /** Means over the reference tables (a table without a partner scores 0). */
  cellF1: number;
  adjacencyF1: number;
  teds: number;
  exactGrid: number;
}

/**
 * Scores an output's tables against reference tables as a reader meets them: each reference
 * table (with text) is paired with the output table whose cell contents match it best, each
 * output table used at most once (greedy, best cell-content F1 first), and scored by
 * cell-content F1, cell-adjacency F1, TEDS with spans and exact grid; a reference table without
 * a partner scores 0 on each. Detection: a reference table is found when its partner's
 * cell-content F1 reaches DETECTED_AT; precision counts the output tables that found one among
 * all output tables with text (an extra table, or a table cut in two, lowers it). Tables without
 * text are left out on both sides. Undefined when no reference table has text.
 */
export function scoreTables(predictions: Table[], references: Table[]): TableScores | undefined {
  const refs = references.filter(tableHasText);
  const preds = predictions.filter(tableHasText);
  if (refs.length === 0) return undefined;
  const pairs: { r: number; p: number; f1: number }[] = [];
  refs.forEach((reference, r) =>
    preds.forEach((prediction, p) => {
      const f1 = cellContentF1(prediction, reference);
      if (f1 > 0) pairs.push({ r, p, f1 });
    }),
  );
  pairs.sort((x, y) => y.f1 - x.f1 || x.r - y.r || x.p - y.p);
  const paired = new Array<number>(refs.length).fill(-1);
  const used = new Set<number>();
  for (const { r, p } of pairs) {
    if (paired[r] >= 0 || used.has(p)) continue;
    paired[r] = p;
    used.add(p);
  }
  const tables = refs.map((reference, r): ReferenceTableScore => {
    const p = paired[r];
    if (p < 0) return { paired: -1, cellF1: 0, adjacencyF1: 0, teds: 0, exact: false, detected: false };
    const cellF1 = cellContentF1(preds[p], reference);
    return {
      paired: p,
      cellF1,
      adjacencyF1: adjacencyF1(preds[p], reference),
      teds: teds(preds[p], reference).score,
      exact: sameTable(preds[p], reference),
      detected: cellF1 >= DETECTED_AT,
    };
  });
  const meanOf = (pick: (t: ReferenceTableScore) => number) => tables.reduce((s, t) => s + pick(t), 0) / tables.length;
  const truePositives = tables.filter((t) => t.detected).length;
  return {
    tables,
    predicted: preds.length,
    truePositives,
    recall: truePositives / refs.length,
    precision: preds.length === 0 ? 1 : truePositives / preds.length,
    cellF1: meanOf((t) => t.cellF1),
    adjacencyF1: meanOf((t) => t.adjacencyF1),
    teds: meanOf((t) => t.teds),
    exactGrid: meanOf((t) => (t.exact ? 1 : 0)),
  };
}

/** Whether an HTML reference holds tables only (`<meta name="reference-scope" content="tables">`): score its tables, not the page's text. */
export function isTablesOnlyReference(html: string): boolean {
  return /<meta\b[^>]*\bname\s*=\s*["']?reference-scope["']?[^>]*\bcontent\s*=\s*["']?tables\b/i.test(html);
}

/** Table scores of several documents pooled over all their reference tables and output tables. */
export interface PooledTableScores {
  documents: number;
  /** Reference tables with text, and output tables with text. */
  references: number;
  predicted: number;
  /** Means over the reference tables. */
  cellF1: number;
  adjacencyF1: number;
  teds: number;
  exactGrid: number;
  /** Detected reference tables over all of them; output tables that found one over all of them. */
  recall: number;
  precision: number;
}

/** Pools documents' table scores: every reference table weighs the same, whichever document it is in. */
export function poolTableScores(documents: readonly TableScores[]): PooledTableScores | undefined {
  const tables = documents.flatMap((d) => d.tables);
  if (tables.length === 0) return undefined;
  const predicted = documents.reduce((n, d) => n + d.predicted, 0);
  const found = documents.reduce((n, d) => n + d.truePositives, 0);
  const meanOf = (pick: (t: ReferenceTableScore) => number) => tables.reduce((s, t) => s + pick(t), 0) / tables.length;
  return {
    documents: documents.length,
    references: tables.length,
    predicted,
    cellF1: meanOf((t) => t.cellF1),
    adjacencyF1: meanOf((t) => t.adjacencyF1),
    teds: meanOf((t) => t.teds),
    exactGrid: meanOf((t) => (t.exact ? 1 : 0)),
    recall: found / tables.length,
    precision: predicted === 0 ? 1 : found / predicted,
  };
}

export interface TableMatch {
  /** Per reference table, in order: its TEDS against the prediction it was paired with, or 0. */
  scores: number[];
  /** Index of the predicted table paired with each reference table, or -1. */
  paired: number[];
  /** Mean of `scores`. */
  mean: number;
  exact: boolean;
}

/**
 * Pairs reference tables with predicted ones greedily, best TEDS first, each table used at most
 * once, and only tables that share some cell content (an unrelated table's likeness in shape is
 * no credit for a table that was missed); a reference table left without a partner scores 0.
 * Undefined when there are no reference tables.
 */
export function matchTables(
  predictions: Table[],
  references: Table[],
  exactLimit = EXACT_TED_LIMIT,
): TableMatch | undefined {
  if (references.length === 0) return undefined;
  const pairs: { r: number; p: number; score: number }[] = [];
  let exact = true;
  references.forEach((reference, r) =>
    predictions.forEach((prediction, p) => {
      if (cellContentF1(prediction, reference) === 0) return;
      const result = teds(prediction, reference, exactLimit);
      exact &&= result.exact;
      pairs.push({ r, p, score: result.score });
    }),
  );
  pairs.sort((x, y) => y.score - x.score || x.r - y.r || x.p - y.p);
  const scores = new Array<number>(references.length).fill(0);
  const paired = new Array<number>(references.length).fill(-1);
  const used = new Set<number>();
  for (const { r, p, score } of pairs) {
    if (paired[r] >= 0 || used.has(p)) continue;
    paired[r] = p;
    scores[r] = score;
    used.add(p);
  }
  return { scores, paired, mean: scores.reduce((s, x) => s + x, 0) / scores.length, exact };
}
