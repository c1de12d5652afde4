/**
 * Tables for the fidelity scorer: reading them out of GFM Markdown, HTML and docling's
 * DoclingDocument JSON into one shape, and comparing two of them by TEDS (tree-edit-distance
 * based similarity, Zhong et al. 2019).
 */
import { codePoints, decodeEntities, editDistance, normalise } from './metrics';

/** One cell where it starts; a spanning cell appears once, in its first row. */
export interface TableCell {
  text: string;
  rowspan: number;
  colspan: number;
  /** A heading cell: `<th>`, inside `<thead>`, a GFM header row, or a docling column/row header. */
  header: boolean;
}

/** Rows top to bottom, each with the cells that start in it, left to right. */
export interface Table {
  rows: TableCell[][];
}

// ---------------------------------------------------------------------------------------------
// GFM

const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Splits a GFM table row on unescaped pipes, dropping the optional outer ones. */
export function splitGfmRow(line: string): string[] {
  let body = line.trim();
  if (body.startsWith('|')) body = body.slice(1);
  if (body.endsWith('|') && !body.endsWith('\\|')) body = body.slice(0, -1);
  const cells: string[] = [];
  let current = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '\\' && body[i + 1] === '|') {
      current += '|';
      i++;
    } else if (ch === '|') {
      cells.push(current.trim());
      current = '';
    } else {
      current += ch;
    }
  }
  cells.push(current.trim());
  return cells;
}

/**
 * GFM tables: a row with pipes, a delimiter row with as many cells, then rows until a blank or
 * pipe-less line. Body rows are padded or cut to the header's width, as GFM renders them.
 * Tables inside fenced code blocks are not tables.
 */
export function parseGfmTables(markdown: string): Table[] {
  const lines = markdown.split(/\r?\n/);
  const tables: Table[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const opener = FENCE.exec(line);
    if (fence !== undefined) {
      if (opener && opener[1][0] === fence[0] && opener[1].length >= fence.length) fence = undefined;
      continue;
    }
    if (opener) {
      fence = opener[1];
      continue;
    }
    const delimiter = lines[i + 1];
    if (!line.includes('|') || delimiter === undefined || !delimiter.includes('|') || !DELIMITER_ROW.test(delimiter)) {
      continue;
    }
    const header = splitGfmRow(line);
    if (splitGfmRow(delimiter).length !== header.length) continue;
    const width = header.length;
    const rows: TableCell[][] = [header.map((text) => ({ text, rowspan: 1, colspan: 1, header: true }))];
    let j = i + 2;
    for (; j < lines.length && lines[j].trim() !== '' && lines[j].includes('|'); j++) {
      const cells = splitGfmRow(lines[j]).slice(0, width);
      while (cells.length < width) cells.push('');
      rows.push(cells.map((text) => ({ text, rowspan: 1, colspan: 1, header: false })));
    }
    tables.push({ rows });
    i = j - 1;
  }
  return tables;
}

// ---------------------------------------------------------------------------------------------
// HTML

const TOKEN = /<!--[\s\S]*?-->|<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>|<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b([^>]*)>/gi;
const BLOCK_TAGS = new Set(['p', 'div', 'li', 'ul', 'ol', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote']);

interface OpenTable {
  table: Table;
  row: TableCell[] | undefined;
  cell: { cell: TableCell; parts: string[] } | undefined;
  inHead: boolean;
}

function spanOf(attributes: string, name: string): number {
  const match = new RegExp(`\\b${name}\\s*=\\s*["']?\\s*(\\d+)`, 'i').exec(attributes);
  const value = match ? parseInt(match[1], 10) : 1;
  return Number.isFinite(value) && value >= 1 ? Math.min(value, 1000) : 1;
}

function cellText(parts: string[]): string {
  return decodeEntities(parts.join(''))
    .replace(/[ \t\r\f\v\u00a0]+/g, ' ')
    .replace(/ *\n[\n ]*/g, '\n')
    .trim();
}

/**
 * Every `<table>` in an HTML document (or in Markdown that embeds HTML), in the order they open.
 * Tolerant of what browsers tolerate: unclosed `<td>`/`<tr>`, cells outside a `<tr>`, stray
 * end tags. A nested table is a table of its own and its text is not part of the outer cell.
 */
export function parseHtmlTables(html: string): Table[] {
  const tables: Table[] = [];
  const stack: OpenTable[] = [];
  const closeCell = (open: OpenTable): void => {
    if (!open.cell) return;
    open.cell.cell.text = cellText(open.cell.parts);
    open.cell = undefined;
  };
  const closeRow = (open: OpenTable): void => {
    closeCell(open);
    if (open.row) open.table.rows.push(open.row);
    open.row = undefined;
  };
  let last = 0;
  for (const match of html.matchAll(TOKEN)) {
    const top = stack[stack.length - 1];
    if (top?.cell) top.cell.parts.push(html.slice(last, match.index));
    last = match.index + match[0].length;
    const name = match[3]?.toLowerCase();
    if (!name) continue;
    const closing = match[2] === '/';
    if (name === 'table') {
      if (!closing) {
        top?.cell?.parts.push('\n');
        const open: OpenTable = { table: { rows: [] }, row: undefined, cell: undefined, inHead: false };
        tables.push(open.table);
        stack.push(open);
      } else if (top) {
        closeRow(top);
        stack.pop();
        stack[stack.length - 1]?.cell?.parts.push('\n');
      }
      continue;
    }
    if (!top) continue;
    if (name === 'tr') {
      closeRow(top);
      if (!closing) top.row = [];
    } else if (name === 'td' || name === 'th') {
      closeCell(top);
      if (!closing) {
        top.row ??= [];
        const attributes = match[4] ?? '';
        const cell: TableCell = {
          text: '',
          rowspan: spanOf(attributes, 'rowspan'),
          colspan: spanOf(attributes, 'colspan'),
          header: name === 'th' || top.inHead,
        };
        top.row.push(cell);
        top.cell = { cell, parts: [] };
      }
    } else if (name === 'thead' || name === 'tbody' || name === 'tfoot') {
      closeRow(top);
      top.inHead = name === 'thead' && !closing;
    } else if (top.cell && (name === 'br' || BLOCK_TAGS.has(name))) {
      top.cell.parts.push('\n');
    }
  }
  for (const open of stack.reverse()) closeRow(open);
  return tables.filter((t) => t.rows.length > 0);
}

/** The visible text of an HTML document: no head, scripts, styles or tags; blocks on their own lines. */
export function htmlToText(html: string): string {
  const body = html.replace(/<head\b[\s\S]*?<\/head\s*>/i, '');
  return decodeEntities(
    body.replace(TOKEN, (_match: string, _skipped: string | undefined, _slash: string, name: string | undefined) => {
      if (!name) return ' ';
      const tag = name.toLowerCase();
      return tag === 'br' || tag === 'tr' || BLOCK_TAGS.has(tag) ? '\n' : tag === 'td' || tag === 'th' ? ' ' : '';
    }),
  )
    .replace(/[ \t\r\f\v\u00a0]+/g, ' ')
    .replace(/ *\n[\n ]*/g, '\n')
    .trim();
}

/** Tables of our own Markdown: GFM tables and HTML tables embedded in it. */
export function parseMarkdownTables(markdown: string): Table[] {
  return [...parseGfmTables(markdown), ...parseHtmlTables(markdown)];
}

// ---------------------------------------------------------------------------------------------
// docling JSON

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function whole(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * The tables of a DoclingDocument (`tables[].data`): from `table_cells` with their
 * start/end row and column offsets, or, when that is empty, from `grid` (where a spanning
 * cell repeats in every slot it covers and is kept once).
 */
export function parseDoclingTables(document: unknown): Table[] {
  const tables = record(document)?.tables;
  if (!Array.isArray(tables)) return [];
  const out: Table[] = [];
  for (const item of tables) {
    const data = record(record(item)?.data);
    if (!data) continue;
    let cells: unknown[] = Array.isArray(data.table_cells) ? data.table_cells : [];
    if (cells.length === 0 && Array.isArray(data.grid)) {
      cells = data.grid.flatMap((row: unknown) => (Array.isArray(row) ? (row as unknown[]) : []));
    }
    const anchored = new Map<string, { row: number; col: number; cell: TableCell }>();
    let numRows = whole(data.num_rows) ?? 0;
    for (const raw of cells) {
      const c = record(raw);
      if (!c) continue;
      const row = whole(c.start_row_offset_idx);
      const col = whole(c.start_col_offset_idx);
      if (row === undefined || col === undefined) continue;
      const endRow = whole(c.end_row_offset_idx) ?? row + 1;
      const endCol = whole(c.end_col_offset_idx) ?? col + 1;
      numRows = Math.max(numRows, row + 1);
      const key = `${row},${col}`;
      if (anchored.has(key)) continue;
      anchored.set(key, {
        row,
        col,
        cell: {
          text: typeof c.text === 'string' ? c.text.trim() : '',
          rowspan: Math.max(1, endRow - row),
          colspan: Math.max(1, endCol - col),
          header: c.column_header === true || c.row_header === true,
        },
      });
    }
    if (anchored.size === 0) continue;
    // `table_cells` leaves out empty cells; the grid has them, as the table shows them.
    let numCols = whole(data.num_cols) ?? 0;
    for (const { col, cell } of anchored.values()) numCols = Math.max(numCols, col + cell.colspan);
    const covered = Array.from({ length: numRows }, () => new Array<boolean>(numCols).fill(false));
    for (const { row, col, cell } of anchored.values()) {
      for (let r = row; r < Math.min(numRows, row + cell.rowspan); r++) {
        for (let c = col; c < Math.min(numCols, col + cell.colspan); c++) covered[r][c] = true;
      }
    }
    const rows: { col: number; cell: TableCell }[][] = Array.from({ length: numRows }, () => []);
    for (const { row, col, cell } of anchored.values()) rows[row].push({ col, cell });
    covered.forEach((slots, row) =>
      slots.forEach((taken, col) => {
        if (!taken) rows[row].push({ col, cell: { text: '', rowspan: 1, colspan: 1, header: false } });
      }),
    );
    out.push({ rows: rows.map((r) => r.sort((a, b) => a.col - b.col).map((x) => x.cell)) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// TEDS

const TABLE = 0;
const ROW = 1;
const CELL = 2;

/** A table as a tree (table → tr → td) in post-order, with leftmost-leaf descendants. */
interface Tree {
  size: number;
  label: Uint8Array;
  rowspan: Int32Array;
  colspan: Int32Array;
  text: number[][];
  leftmost: Int32Array;
  keyroots: number[];
  /** Post-order indices of each row's cells, for the row-alignment fallback. */
  rows: number[][];
}

function toTree(table: Table): Tree {
  const size = 1 + table.rows.length + table.rows.reduce((n, r) => n + r.length, 0);
  const label = new Uint8Array(size);
  const rowspan = new Int32Array(size);
  const colspan = new Int32Array(size);
  const text: number[][] = new Array<number[]>(size);
  const leftmost = new Int32Array(size);
  const rows: number[][] = [];
  let next = 0;
  for (const row of table.rows) {
    const first = next;
    const indices: number[] = [];
    for (const cell of row) {
      label[next] = CELL;
      rowspan[next] = cell.rowspan;
      colspan[next] = cell.colspan;
      text[next] = codePoints(normalise(cell.text));
      leftmost[next] = next;
      indices.push(next);
      next++;
    }
    label[next] = ROW;
    text[next] = [];
    leftmost[next] = row.length > 0 ? first : next;
    rows.push(indices);
    next++;
  }
  label[next] = TABLE;
  text[next] = [];
  leftmost[next] = next > 0 ? leftmost[0] : next;
  const seen = new Set<number>();
  const keyroots: number[] = [];
  for (let i = size - 1; i >= 0; i--) {
    if (!seen.has(leftmost[i])) {
      seen.add(leftmost[i]);
      keyroots.push(i);
    }
  }
  keyroots.reverse();
  return { size, label, rowspan, colspan, text, leftmost, keyroots, rows };
}

/** Cost of turning node i of a into node j of b. */
function renameCost(a: Tree, i: number, b: Tree, j: number): number {
  if (a.label[i] !== b.label[j]) return 1;
  if (a.label[i] !== CELL) return 0;
  if (a.rowspan[i] !== b.rowspan[j] || a.colspan[i] !== b.colspan[j]) return 1;
  const x = a.text[i];
  const y = b.text[j];
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 0 : editDistance(x, y) / longest;
}

/** Zhang–Shasha ordered tree edit distance; unit insert and delete. */
function zhangShasha(a: Tree, b: Tree): number {
  const n1 = a.size;
  const n2 = b.size;
  const treeDist = new Float64Array(n1 * n2);
  const forest = new Float64Array((n1 + 1) * (n2 + 1));
  const renames = new Float32Array(n1 * n2).fill(-1);
  const rename = (i: number, j: number): number => {
    const k = i * n2 + j;
    if (renames[k] < 0) renames[k] = renameCost(a, i, b, j);
    return renames[k];
  };
  for (const i of a.keyroots) {
    for (const j of b.keyroots) {
      const li = a.leftmost[i];
      const lj = b.leftmost[j];
      const w = j - lj + 2;
      forest[0] = 0;
      for (let x = 1; x <= i - li + 1; x++) forest[x * w] = forest[(x - 1) * w] + 1;
      for (let y = 1; y <= j - lj + 1; y++) forest[y] = forest[y - 1] + 1;
      for (let di = li; di <= i; di++) {
        const x = di - li + 1;
        const wholeA = a.leftmost[di] === li;
        for (let dj = lj; dj <= j; dj++) {
          const y = dj - lj + 1;
          const remove = forest[(x - 1) * w + y] + 1;
          const insert = forest[x * w + y - 1] + 1;
          if (wholeA && b.leftmost[dj] === lj) {
            const value = Math.min(remove, insert, forest[(x - 1) * w + y - 1] + rename(di, dj));
            forest[x * w + y] = value;
            treeDist[di * n2 + dj] = value;
          } else {
            const px = a.leftmost[di] - li;
            const py = b.leftmost[dj] - lj;
            forest[x * w + y] = Math.min(remove, insert, forest[px * w + py] + treeDist[di * n2 + dj]);
          }
        }
      }
    }
  }
  return treeDist[n1 * n2 - 1];
}

/** Edit distance of two cell sequences (one row each), with the TEDS rename cost. */
function rowDistance(a: Tree, ra: number[], b: Tree, rb: number[]): number {
  let prev = Float64Array.from({ length: rb.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ra.length; i++) {
    const cur = new Float64Array(rb.length + 1);
    cur[0] = i;
    for (let j = 1; j <= rb.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + renameCost(a, ra[i - 1], b, rb[j - 1]));
    }
    prev = cur;
  }
  return prev[rb.length];
}

/**
 * For tables too large for Zhang–Shasha: rows are aligned as a sequence (a row inserted or
 * deleted costs 1 plus its cells, two aligned rows cost the edit distance of their cells),
 * within a diagonal band. This is the cost of one valid edit script, so it never undercounts
 * the true distance (TEDS is never flattered) and equals it whenever no cell has to move
 * between rows.
 */
function rowAlignment(a: Tree, b: Tree): number {
  const r1 = a.rows.length;
  const r2 = b.rows.length;
  const band = Math.abs(r1 - r2) + 64;
  let prev = new Float64Array(r2 + 1).fill(Infinity);
  prev[0] = 0;
  for (let j = 1; j <= Math.min(r2, band); j++) prev[j] = prev[j - 1] + 1 + b.rows[j - 1].length;
  for (let i = 1; i <= r1; i++) {
    const cur = new Float64Array(r2 + 1).fill(Infinity);
    const from = Math.max(0, i - band);
    const to = Math.min(r2, i + band);
    for (let j = from; j <= to; j++) {
      const remove = prev[j] + 1 + a.rows[i - 1].length;
      let best = remove;
      if (j > 0) {
        best = Math.min(best, cur[j - 1] + 1 + b.rows[j - 1].length);
        if (prev[j - 1] < Infinity)
          best = Math.min(best, prev[j - 1] + rowDistance(a, a.rows[i - 1], b, b.rows[j - 1]));
      }
      cur[j] = best;
    }
    prev = cur;
  }
  return prev[r2];
}

/** Largest product of tree sizes compared exactly; beyond it the row alignment is used. */
export const EXACT_TED_LIMIT = 4_000_000;

export interface TedsResult {
  score: number;
  distance: number;
  /** False when the tables were too large for the exact tree edit distance. */
  exact: boolean;
}

/**
 * TEDS of a predicted table against a reference: 1 − TED / max(node count). Nodes are the
 * table, its rows and its cells; two cells cost the normalised edit distance of their
 * normalised texts to rename (1 when their row or column spans differ), any other pair of
 * equal labels costs 0 and unequal labels 1; inserting or deleting any node costs 1.
 */
export function teds(prediction: Table, reference: Table, exactLimit = EXACT_TED_LIMIT): TedsResult {
  const a = toTree(prediction);
  const b = toTree(reference);
  const exact = a.size * b.size <= exactLimit;
  const distance = exact ? zhangShasha(a, b) : rowAlignment(a, b);
  return { score: Math.max(0, 1 - distance / Math.max(a.size, b.size)), distance, exact };
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
 * once; a reference table left without a partner scores 0. Undefined when there are no
 * reference tables.
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

// ---------------------------------------------------------------------------------------------
// Structure exactness

/** Whether any cell of a table holds text, as text similarity normalises it. */
export function tableHasText(table: Table): boolean {
  return table.rows.some((row) => row.some((cell) => normalise(cell.text) !== ''));
}

/**
 * Whether two tables are the same grid with the same texts: as many rows, as many cells in each
 * row, every cell with the same row and column span and the same text as text similarity
 * normalises it (case, spacing and punctuation aside). Header flags do not count.
 */
export function sameTable(prediction: Table, reference: Table): boolean {
  return (
    prediction.rows.length === reference.rows.length &&
    prediction.rows.every((row, r) => {
      const other = reference.rows[r];
      return (
        row.length === other.length &&
        row.every(
          (cell, c) =>
            cell.rowspan === other[c].rowspan &&
            cell.colspan === other[c].colspan &&
            normalise(cell.text) === normalise(other[c].text),
        )
      );
    })
  );
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
