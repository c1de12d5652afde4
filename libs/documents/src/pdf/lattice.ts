/**
 * Tables drawn with ruling lines. Rules that touch each other form a grid; each gap between
 * neighbouring rules is a row or a column, and a grid slot whose boundary is not drawn is
 * merged with its neighbour, which is how row and column spans are recovered. The text runs
 * inside the grid are handed to its cells and taken out of the page's running text.
 */
import type { Rule } from './rules';
import { buildLines, median, mend, type TextRun } from './layout';
import type { GridCell as TableCell } from '@docconv/model';

export interface RuledTable {
  top: number;
  bottom: number;
  left: number;
  right: number;
  /** Rows top to bottom, each with the cells that start in it, left to right. */
  rows: TableCell[][];
  /** Font size of the text inside. */
  size: number;
}

/** Rules closer than this (points) are the same line; a rule this near a crossing touches it. */
const SNAP = 2;
/** Rows or columns narrower than this are slivers between doubled lines, not cells. */
const MIN_TRACK = 4;
/** Words of a row further apart than this (ems) across a column boundary the table does not draw are in two cells. */
const WORD_GAP_EM = 0.8;

interface Horizontal {
  y: number;
  x0: number;
  x1: number;
}
interface Vertical {
  x: number;
  y0: number;
  y1: number;
}

/**
 * The ruled tables on a page and the runs that are not inside any of them. A grid needs at
 * least two rows and two columns with text in two or more cells; smaller boxes (a framed
 * note, an underline) are left to the running text.
 */
export function ruledTables(rules: Rule[], runs: TextRun[]): { tables: RuledTable[]; rest: TextRun[] } {
  const horizontals = mergeHorizontals(rules.filter((r) => r.y0 === r.y1));
  const verticals = mergeVerticals(rules.filter((r) => r.x0 === r.x1));
  const tables: RuledTable[] = [];
  let rest = runs;
  for (const group of components(horizontals, verticals)) {
    const table = buildTable(group.horizontals, group.verticals, rest);
    if (!table) continue;
    tables.push(table.table);
    rest = table.rest;
  }
  return { tables: tables.sort((a, b) => a.top - b.top), rest };
}

function mergeHorizontals(rules: Rule[]): Horizontal[] {
  const sorted = rules.map((r) => ({ y: r.y0, x0: r.x0, x1: r.x1 })).sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const out: Horizontal[] = [];
  for (const rule of sorted) {
    const same = out.find(
      (o) => Math.abs(o.y - rule.y) <= SNAP / 2 && rule.x0 <= o.x1 + SNAP && rule.x1 >= o.x0 - SNAP,
    );
    if (same) {
      same.x0 = Math.min(same.x0, rule.x0);
      same.x1 = Math.max(same.x1, rule.x1);
    } else {
      out.push({ ...rule });
    }
  }
  return out;
}

function mergeVerticals(rules: Rule[]): Vertical[] {
  const sorted = rules.map((r) => ({ x: r.x0, y0: r.y0, y1: r.y1 })).sort((a, b) => a.x - b.x || a.y0 - b.y0);
  const out: Vertical[] = [];
  for (const rule of sorted) {
    const same = out.find(
      (o) => Math.abs(o.x - rule.x) <= SNAP / 2 && rule.y0 <= o.y1 + SNAP && rule.y1 >= o.y0 - SNAP,
    );
    if (same) {
      same.y0 = Math.min(same.y0, rule.y0);
      same.y1 = Math.max(same.y1, rule.y1);
    } else {
      out.push({ ...rule });
    }
  }
  return out;
}

const crosses = (h: Horizontal, v: Vertical) =>
  v.x >= h.x0 - SNAP && v.x <= h.x1 + SNAP && h.y >= v.y0 - SNAP && h.y <= v.y1 + SNAP;

/** Groups of rules connected through crossings (union–find over horizontals and verticals). */
function components(horizontals: Horizontal[], verticals: Vertical[]) {
  const parent = [...horizontals, ...verticals].map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  horizontals.forEach((h, i) =>
    verticals.forEach((v, j) => {
      if (crosses(h, v)) parent[find(i)] = find(horizontals.length + j);
    }),
  );
  const groups = new Map<number, { horizontals: Horizontal[]; verticals: Vertical[] }>();
  const groupOf = (i: number) => {
    const root = find(i);
    let group = groups.get(root);
    if (!group) groups.set(root, (group = { horizontals: [], verticals: [] }));
    return group;
  };
  horizontals.forEach((h, i) => groupOf(i).horizontals.push(h));
  verticals.forEach((v, j) => groupOf(horizontals.length + j).verticals.push(v));
  return [...groups.values()].filter((g) => g.horizontals.length >= 2 && g.verticals.length >= 1);
}

/** Positions closer than MIN_TRACK collapse into one (doubled lines, hairline gaps). */
function tracks(positions: number[]): number[] {
  const out: number[] = [];
  for (const p of [...positions].sort((a, b) => a - b)) {
    if (out.length === 0 || p - out[out.length - 1] >= MIN_TRACK) out.push(p);
  }
  return out;
}

function buildTable(horizontals: Horizontal[], verticals: Vertical[], runs: TextRun[]) {
  const left = Math.min(...horizontals.map((h) => h.x0));
  const right = Math.max(...horizontals.map((h) => h.x1));
  const top = Math.min(...horizontals.map((h) => h.y), ...verticals.map((v) => v.y0));
  const bottom = Math.max(...horizontals.map((h) => h.y), ...verticals.map((v) => v.y1));
  const ys = tracks([top, bottom, ...horizontals.map((h) => h.y)]);
  const xs = tracks([left, right, ...verticals.map((v) => v.x)]);
  const rowCount = ys.length - 1;
  const columnCount = xs.length - 1;
  if (rowCount < 1 || columnCount < 2 || rowCount * columnCount < 4) return undefined;

  // A boundary between two slots is drawn when a rule covers the middle of their shared edge.
  const drawnVertical = (x: number, y: number) =>
    verticals.some((v) => Math.abs(v.x - x) <= SNAP && v.y0 <= y && v.y1 >= y);
  const drawnHorizontal = (y: number, x: number) =>
    horizontals.some((h) => Math.abs(h.y - y) <= SNAP && h.x0 <= x && h.x1 >= x);
  const slot = (r: number, c: number) => r * columnCount + c;
  const parent = Array.from({ length: rowCount * columnCount }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  // Words on both sides of an undrawn column boundary, none across it, are two cells: a table
  // that rules its columns only in the header (or not at all) keeps its body's columns.
  const tableWords = runs
    .filter(
      (run) =>
        run.text.trim() !== '' && run.x < right && run.x + run.width > left && run.y > top && run.y - run.size < bottom,
    )
    .flatMap(words);
  const inRow = (word: TextRun, r: number) => {
    const cy = word.y - word.size * 0.3;
    return cy >= ys[r] && cy < ys[r + 1];
  };
  const separated = (r: number, c: number) => {
    const row = tableWords.filter((word) => inRow(word, r));
    const x = xs[c + 1];
    const centre = (word: TextRun) => word.x + word.width / 2;
    const before = row.filter((word) => centre(word) >= xs[c] && centre(word) < x);
    const after = row.filter((word) => centre(word) >= x && centre(word) < xs[c + 2]);
    if (before.length === 0 || after.length === 0) return false;
    // Further apart than words of one line are: not a sentence running across the boundary.
    const gap = Math.min(...after.map((w) => w.x)) - Math.max(...before.map((w) => w.x + w.width));
    return gap >= median(row.map((word) => word.size)) * WORD_GAP_EM;
  };
  for (let r = 0; r < rowCount; r++) {
    const midY = (ys[r] + ys[r + 1]) / 2;
    for (let c = 0; c < columnCount; c++) {
      const midX = (xs[c] + xs[c + 1]) / 2;
      if (c + 1 < columnCount && !drawnVertical(xs[c + 1], midY) && !separated(r, c))
        parent[find(slot(r, c + 1))] = find(slot(r, c));
      if (r + 1 < rowCount && !drawnHorizontal(ys[r + 1], midX)) parent[find(slot(r + 1, c))] = find(slot(r, c));
    }
  }

  // Each merged group becomes one cell spanning its bounding slots, anchored at its top-left.
  const bounds = new Map<number, { r0: number; c0: number; r1: number; c1: number; runs: TextRun[] }>();
  for (let r = 0; r < rowCount; r++) {
    for (let c = 0; c < columnCount; c++) {
      const root = find(slot(r, c));
      const b = bounds.get(root);
      if (!b) bounds.set(root, { r0: r, c0: c, r1: r, c1: c, runs: [] });
      else {
        b.r1 = Math.max(b.r1, r);
        b.c1 = Math.max(b.c1, c);
        b.c0 = Math.min(b.c0, c);
      }
    }
  }
  if (bounds.size < 2) return undefined;
  // In a table a merged cell is one whose dividing line is not drawn at all. A line that runs
  // part way into a merged cell and stops belongs to a drawing (a diagram's boxes and
  // connectors), not to a grid.
  for (const b of bounds.values()) {
    if (b.r0 === b.r1 && b.c0 === b.c1) continue;
    const [x0, x1, y0, y1] = [xs[b.c0] + SNAP, xs[b.c1 + 1] - SNAP, ys[b.r0] + SNAP, ys[b.r1 + 1] - SNAP];
    const dangling =
      verticals.some((v) => v.x > x0 && v.x < x1 && Math.min(v.y1, y1) - Math.max(v.y0, y0) > SNAP) ||
      horizontals.some((h) => h.y > y0 && h.y < y1 && Math.min(h.x1, x1) - Math.max(h.x0, x0) > SNAP);
    if (dangling) return undefined;
  }

  const indexIn = (edges: number[], value: number) => {
    for (let i = 0; i < edges.length - 1; i++) if (value >= edges[i] && value < edges[i + 1]) return i;
    return -1;
  };
  const rest: TextRun[] = [];
  const sizes: number[] = [];
  const inside = (run: TextRun) =>
    run.x < right && run.x + run.width > left && run.y > top && run.y - run.size < bottom;
  for (const run of runs.flatMap((r) => (inside(r) ? words(r) : [r]))) {
    const cx = run.x + run.width / 2;
    const cy = run.y - run.size * 0.3;
    const r = cy >= top - SNAP && cy <= bottom + SNAP ? indexIn(ys, Math.min(Math.max(cy, top), bottom - 0.01)) : -1;
    const c = cx >= left - SNAP && cx <= right + SNAP ? indexIn(xs, Math.min(Math.max(cx, left), right - 0.01)) : -1;
    if (r < 0 || c < 0) {
      rest.push(run);
      continue;
    }
    bounds.get(find(slot(r, c)))?.runs.push(run);
    sizes.push(run.size);
  }
  const filled = [...bounds.values()].filter((b) => b.runs.some((run) => run.text.trim() !== ''));
  if (filled.length < 2) return undefined;

  // A right-to-left table is read from its rightmost column.
  const texts = filled.flatMap((b) => b.runs).filter((run) => run.text.trim() !== '');
  const rtl = texts.filter((run) => run.rtl).length > texts.length / 2;
  const rows: TableCell[][] = Array.from({ length: rowCount }, () => []);
  const placed = new Set<number>();
  for (let r = 0; r < rowCount; r++) {
    for (let i = 0; i < columnCount; i++) {
      const c = rtl ? columnCount - 1 - i : i;
      const root = find(slot(r, c));
      if (placed.has(root)) continue;
      placed.add(root);
      const b = bounds.get(root);
      if (!b) continue;
      rows[b.r0].push({ text: cellText(b.runs), rowspan: b.r1 - b.r0 + 1, colspan: b.c1 - b.c0 + 1 });
    }
  }
  const size = sizes.sort((a, b) => a - b)[Math.floor(sizes.length / 2)] ?? 10;
  return { table: { top, bottom, left, right, rows: rows.filter((row) => row.length > 0), size }, rest };
}

/**
 * A run split at its spaces into words, each placed by its share of the run's width, so a run
 * that a producer wrote across several cells lands in each of them.
 */
function words(run: TextRun): TextRun[] {
  // Text set sideways runs down its cell, not across cells.
  if (run.top !== undefined || !/\S\s+\S/.test(run.text) || run.text.length === 0) return [run];
  const perChar = run.width / run.text.length;
  const out: TextRun[] = [];
  for (const match of run.text.matchAll(/\S+/g)) {
    const width = match[0].length * perChar;
    // Right-to-left text starts at the run's right edge.
    const x = run.rtl ? run.x + run.width - match.index * perChar - width : run.x + match.index * perChar;
    out.push({ ...run, text: match[0], x, width });
  }
  return out;
}

/** A cell's runs read as lines, top to bottom, joined with single spaces (hyphenation mended). */
function cellText(runs: TextRun[]): string {
  const lines = buildLines(runs).map((line) => line.text);
  return lines.length === 0 ? '' : lines.reduce(mend).trim();
}
