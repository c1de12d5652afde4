/**
 * Exact distances between sequences of symbol ids (code points or word ids): edit distance,
 * approximate substring search and LCS length by bit-parallel sweeps, and an LCS alignment in
 * linear memory. Pure; the text metrics (metrics.ts) are built on these.
 */

/** A string's code points. */
export function codePoints(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) out.push(ch.codePointAt(0)!);
  return out;
}

/**
 * Levenshtein distance (unit-cost insert, delete, substitute) between two sequences of symbol
 * ids. Uses Myers' bit-parallel algorithm in Hyyrö's multi-word form: the shorter sequence is
 * cut into blocks of 32 rows, and each block is swept across the longer one carrying the
 * horizontal deltas between blocks. That is O(⌈m/32⌉·n) word operations, so two 50,000-symbol
 * texts take well under a second, exactly, with no chunking or approximation.
 */
export function editDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const [pattern, text] = a.length <= b.length ? [a, b] : [b, a];
  if (pattern.length === 0) return text.length;
  const { pattern: p, text: t, alphabet } = denseIds(pattern, text);
  return sweep(p, t, alphabet, false);
}

/**
 * Approximate substring search: for every end position `j` (exclusive) of `text`, the least
 * edit distance between `pattern` and any substring of `text` ending there. Same bit-parallel
 * sweep as editDistance, with a free start anywhere in the text.
 */
export function substringDistances(pattern: ArrayLike<number>, text: ArrayLike<number>): Int32Array {
  const row = new Int32Array(text.length + 1);
  if (pattern.length === 0) return row;
  row[0] = pattern.length;
  const { pattern: p, text: t, alphabet } = denseIds(pattern, text);
  sweep(p, t, alphabet, true, row);
  return row;
}

/**
 * Length of a longest common subsequence of two sequences of symbol ids. Uses the bit-parallel
 * algorithm of Allison and Dix in Hyyrö's form: one bit per row of the shorter sequence in a
 * vector V, all ones at first, and for each symbol of the longer one V ← (V + (V & M)) | (V & ~M),
 * where M marks the rows holding that symbol. The LCS length is the number of zero bits left in V.
 * As in editDistance, rows are cut into blocks of 32 and each block is swept across the longer
 * sequence on its own, carrying the addition's carry bit into the next block column by column:
 * O(⌈m/32⌉·n) word operations, exact, and memory linear in the lengths.
 */
export function lcsLength(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const [pattern, text] = a.length <= b.length ? [a, b] : [b, a];
  if (pattern.length === 0) return 0;
  const { pattern: p, text: t, alphabet } = denseIds(pattern, text);
  const m = p.length;
  const n = t.length;
  const peq = new Int32Array(alphabet);
  // carry[j]: the carry out of the previous block's addition at column j, into this block's.
  const carry = new Uint8Array(n);
  let length = 0;
  for (let start = 0; start < m; start += 32) {
    const rows = Math.min(32, m - start);
    for (let k = 0; k < rows; k++) peq[p[start + k]] |= 1 << k;
    let v = -1;
    for (let j = 0; j < n; j++) {
      const eq = peq[t[j]];
      // Unsigned 32-bit halves added in a double stay exact; bit 32 of the sum is the carry out.
      const sum = (v >>> 0) + ((v & eq) >>> 0) + carry[j];
      carry[j] = sum > 0xffffffff ? 1 : 0;
      v = sum | (v & ~eq);
    }
    const rowMask = rows === 32 ? -1 : (1 << rows) - 1;
    length += bitCount(~v & rowMask);
    for (let k = 0; k < rows; k++) peq[p[start + k]] = 0;
  }
  return length;
}

/** Number of set bits of a 32-bit integer. */
function bitCount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

function denseIds(
  pattern: ArrayLike<number>,
  text: ArrayLike<number>,
): { pattern: Int32Array; text: Int32Array; alphabet: number } {
  const ids = new Map<number, number>();
  const p = new Int32Array(pattern.length);
  for (let i = 0; i < pattern.length; i++) {
    let n = ids.get(pattern[i]);
    if (n === undefined) ids.set(pattern[i], (n = ids.size));
    p[i] = n;
  }
  const inPattern = ids.size;
  const t = new Int32Array(text.length);
  // A text symbol absent from the pattern never matches: all such symbols share one id.
  for (let j = 0; j < text.length; j++) t[j] = ids.get(text[j]) ?? inPattern;
  return { pattern: p, text: t, alphabet: inPattern + 1 };
}

/**
 * The block sweep. Rows are pattern symbols, columns text symbols. `pv`/`mv` hold the vertical
 * +1/−1 deltas of the 32 rows of the current block; `carry[j]` the horizontal delta entering
 * the block's top edge at column j (the previous block's bottom edge). In search mode the top
 * row is all zeros (a match may start anywhere); otherwise it is 0, 1, 2, …
 */
function sweep(pattern: Int32Array, text: Int32Array, alphabet: number, search: boolean, row?: Int32Array): number {
  const m = pattern.length;
  const n = text.length;
  const peq = new Int32Array(alphabet);
  const carry = new Int8Array(n).fill(search ? 0 : 1);
  let score = 0;
  for (let start = 0; start < m; start += 32) {
    const rows = Math.min(32, m - start);
    for (let k = 0; k < rows; k++) peq[pattern[start + k]] |= 1 << k;
    const last = rows - 1;
    const final = start + rows >= m;
    let pv = -1;
    let mv = 0;
    score = start + rows;
    for (let j = 0; j < n; j++) {
      let eq = peq[text[j]];
      const hin = carry[j];
      const xv = eq | mv;
      if (hin < 0) eq |= 1;
      const xh = (((eq & pv) + pv) ^ pv) | eq;
      let ph = mv | ~(xh | pv);
      let mh = pv & xh;
      if ((ph >>> last) & 1) {
        carry[j] = 1;
        score++;
      } else if ((mh >>> last) & 1) {
        carry[j] = -1;
        score--;
      } else {
        carry[j] = 0;
      }
      ph = (ph << 1) | (hin > 0 ? 1 : 0);
      mh = (mh << 1) | (hin < 0 ? 1 : 0);
      pv = mh | ~(xv | ph);
      mv = ph & xv;
      if (final && row) row[j + 1] = score;
    }
    for (let k = 0; k < rows; k++) peq[pattern[start + k]] = 0;
  }
  return score;
}

/**
 * For each symbol of `a`, the index of the symbol of `b` it is matched with in a longest common
 * subsequence of the two, or -1. Hirschberg's divide and conquer: linear memory, so long texts
 * align as exactly as short ones.
 */
export function alignment(a: readonly number[], b: readonly number[]): Int32Array {
  const match = new Int32Array(a.length).fill(-1);
  const solve = (aLo: number, aHi: number, bLo: number, bHi: number): void => {
    if (aHi <= aLo || bHi <= bLo) return;
    if (aHi - aLo === 1) {
      for (let j = bLo; j < bHi; j++) {
        if (b[j] === a[aLo]) {
          match[aLo] = j;
          return;
        }
      }
      return;
    }
    const mid = (aLo + aHi) >> 1;
    const forward = lcsRow(a, aLo, mid, b, bLo, bHi, false);
    const backward = lcsRow(a, mid, aHi, b, bLo, bHi, true);
    let split = bLo;
    let best = -1;
    for (let k = 0; k <= bHi - bLo; k++) {
      const total = forward[k] + backward[bHi - bLo - k];
      if (total > best) [best, split] = [total, bLo + k];
    }
    solve(aLo, mid, bLo, split);
    solve(mid, aHi, split, bHi);
  };
  solve(0, a.length, 0, b.length);
  return match;
}

/**
 * LCS lengths of a[aLo, aHi) against every prefix of b[bLo, bHi) (or, reversed, of the
 * reversed ranges against every suffix): entry k is the length for k symbols of b.
 */
function lcsRow(
  a: readonly number[],
  aLo: number,
  aHi: number,
  b: readonly number[],
  bLo: number,
  bHi: number,
  reversed: boolean,
): Int32Array {
  const width = bHi - bLo;
  let previous = new Int32Array(width + 1);
  let current = new Int32Array(width + 1);
  for (let n = 0; n < aHi - aLo; n++) {
    const symbol = reversed ? a[aHi - 1 - n] : a[aLo + n];
    for (let k = 1; k <= width; k++) {
      const other = reversed ? b[bHi - k] : b[bLo + k - 1];
      current[k] = symbol === other ? previous[k - 1] + 1 : Math.max(previous[k], current[k - 1]);
    }
    [previous, current] = [current, previous];
  }
  return previous;
}

/** Strings (words, labels) as dense integer ids, one id per distinct string, shared through `ids` between the texts compared. */
export function toIds(words: string[], ids: Map<string, number>): Int32Array {
  const out = new Int32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    let n = ids.get(words[i]);
    if (n === undefined) ids.set(words[i], (n = ids.size));
    out[i] = n;
  }
  return out;
}
