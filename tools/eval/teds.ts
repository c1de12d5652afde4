/**
 * TEDS (tree-edit-distance based similarity, Zhong et al. 2019) of two tables, and the pairing of
 * reference tables with predicted ones by it.
 */
import { codePoints, editDistance, normalise } from './metrics';
import type { Table } from './tables';

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

// ---------------------------------------------------------------------------------------------
// Structure exactness
