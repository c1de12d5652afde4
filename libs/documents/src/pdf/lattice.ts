/**
 * Tables drawn with ruling lines. Rules that touch each other form a grid; each gap between
 * neighbouring rules is a row or a column, and a grid slot whose boundary is not drawn is
 * merged with its neighbour, which is how row and column spans are recovered. Tracks no word
 * stands in (slivers between doubled or offset lines) are dropped; columns and rows the table
 * does not rule (a body ruled only above and below) are found from its words: gaps no word
 * crosses, and lines its columns start together (lattice-tracks.ts). The text runs inside the
 * grid are handed to its cells and taken out of the page's running text.
 */
import type { Rule, Shape } from './rules';
import { buildLines, median, mend, words, type TextRun } from './layout';
import { withoutLeaders } from './leaders';
import { CAPTION, NOTE } from './figures';
import { corridorsIn, drawnLength, inkedTracks, rowStarts } from './lattice-tracks';
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
 * note, an underline, one shaded row of a table whose other rows are not drawn, which the
 * running text's aligned tables read whole) are left to the running text, and so is a frame
 * around a drawing (one of `drawings`, the page's figure regions, stands in it: a chart's box
 * and axes).
 */
export function ruledTables(
  rules: Rule[],
  runs: TextRun[],
  drawings: Shape[] = [],
): { tables: RuledTable[]; rest: TextRun[] } {
  const horizontals = mergeHorizontals(rules.filter((r) => r.y0 === r.y1));
  const verticals = mergeVerticals(rules.filter((r) => r.x0 === r.x1));
  const tables: RuledTable[] = [];
  let rest = runs;
  for (const group of components(horizontals, verticals)) {
    if (drawings.some((drawing) => frames(group, drawing))) continue;
    const built = buildTable(group.horizontals, group.verticals, rest);
    const table = built && withinItsFrame(built, group, rest);
    if (!table) continue;
    tables.push(table.table);
    rest = table.rest;
  }
  return { tables: tables.sort((a, b) => a.top - b.top), rest };
}

/**
 * The table a frame holds without the caption ruled in as its first row or the note ruled in as
 * its last (each one cell across the table): those are read as the text above and below it.
 */
function withinItsFrame(
  built: NonNullable<ReturnType<typeof buildTable>>,
  group: { horizontals: Horizontal[]; verticals: Vertical[] },
  runs: TextRun[],
): ReturnType<typeof buildTable> {
  const { rows } = built.table;
  const columns = rows[0].reduce((n, cell) => n + cell.colspan, 0);
  const across = (row: TableCell[] | undefined, pattern: RegExp) =>
    row?.length === 1 && row[0].colspan === columns && row[0].rowspan === 1 && pattern.test(row[0].text);
  // What is left holds two rows or more.
  if (rows.length < 3) return built;
  const caption = across(rows[0], CAPTION);
  const note = across(rows[rows.length - 1], NOTE);
  if (!caption && !note) return built;
  // Where the second row starts, and the last (buildTable boxes every cell).
  const top = caption ? (rows[1][0].box?.[1] ?? -Infinity) : -Infinity;
  const bottom = note ? (rows[rows.length - 1][0].box?.[1] ?? Infinity) : Infinity;
  const inside = (y: number) => y >= top - SNAP && y <= bottom + SNAP;
  return buildTable(
    group.horizontals.filter((h) => inside(h.y)),
    group.verticals
      .map((v) => ({ ...v, y0: Math.max(v.y0, top), y1: Math.min(v.y1, bottom) }))
      .filter((v) => v.y1 - v.y0 > SNAP),
    runs,
  );
}

/** A rule this far under a run's baseline (in its sizes) or nearer is drawn under that run. */
const UNDER_REACH = 1;

/**
 * The runs with the stretch of a horizontal rule drawn just under each (`ruledUnder`): the rule
 * under a header that spans columns of a table without column rules says which columns it
 * spans. Rules that meet end to end are one stretch (as the grids merge them).
 */
export function withRulesUnder(runs: TextRun[], rules: Rule[]): TextRun[] {
  const stretches = mergeHorizontals(rules.filter((rule) => rule.y0 === rule.y1));
  if (stretches.length === 0) return runs;
  return runs.map((run) => {
    const under = stretches.find(
      (s) => s.y > run.y && s.y <= run.y + run.size * UNDER_REACH && s.x0 <= run.x && s.x1 >= run.x + run.width,
    );
    return under && run.top === undefined ? { ...run, ruledUnder: [under.x0, under.x1] } : run;
  });
}

/** Whether a group of rules stands around a drawing: the drawing's middle is inside the rules' extent. */
function frames(group: { horizontals: Horizontal[]; verticals: Vertical[] }, drawing: Shape): boolean {
  const [x, y] = [(drawing.x0 + drawing.x1) / 2, (drawing.y0 + drawing.y1) / 2];
  const left = Math.min(...group.horizontals.map((h) => h.x0), ...group.verticals.map((v) => v.x));
  const right = Math.max(...group.horizontals.map((h) => h.x1), ...group.verticals.map((v) => v.x));
  const top = Math.min(...group.horizontals.map((h) => h.y), ...group.verticals.map((v) => v.y0));
  const bottom = Math.max(...group.horizontals.map((h) => h.y), ...group.verticals.map((v) => v.y1));
  return x > left && x < right && y > top && y < bottom;
}

/** A rule along one line: where it stands across that line (`at`) and its stretch along it. */
interface Stretch {
  at: number;
  from: number;
  to: number;
}

/** Rules along one line (within SNAP / 2 of it) that overlap or meet (within SNAP) merged into one. */
function merged(stretches: Stretch[]): Stretch[] {
  const out: Stretch[] = [];
  for (const rule of stretches.sort((a, b) => a.at - b.at || a.from - b.from)) {
    const same = out.find(
      (o) => Math.abs(o.at - rule.at) <= SNAP / 2 && rule.from <= o.to + SNAP && rule.to >= o.from - SNAP,
    );
    if (same) {
      same.from = Math.min(same.from, rule.from);
      same.to = Math.max(same.to, rule.to);
    } else {
      out.push({ ...rule });
    }
  }
  return out;
}

function mergeHorizontals(rules: Rule[]): Horizontal[] {
  return merged(rules.map((r) => ({ at: r.y0, from: r.x0, to: r.x1 }))).map((s) => ({ y: s.at, x0: s.from, x1: s.to }));
}

function mergeVerticals(rules: Rule[]): Vertical[] {
  return merged(rules.map((r) => ({ at: r.x0, from: r.y0, to: r.y1 }))).map((s) => ({ x: s.at, y0: s.from, y1: s.to }));
}

const crosses = (h: Horizontal, v: Vertical) =>
  v.x >= h.x0 - SNAP && v.x <= h.x1 + SNAP && h.y >= v.y0 - SNAP && h.y <= v.y1 + SNAP;

/** Two lines of a doubled rule run side by side at least this far (points): as far as a narrow cell. */
const DOUBLED_RUN = 20;

/**
 * Two rules of one direction drawn as one doubled line: closer than MIN_TRACK, side by side for
 * DOUBLED_RUN at least (a checkbox's edge beside a row's rule is no second line of it).
 */
const doubled = (a: Stretch, b: Stretch) =>
  Math.abs(a.at - b.at) < MIN_TRACK && Math.min(a.to, b.to) - Math.max(a.from, b.from) >= DOUBLED_RUN;

/**
 * Groups of rules connected through crossings (union–find over horizontals and verticals); the
 * two lines of a doubled rule are connected too (a header ruled off by a double line whose
 * column rules stop at it).
 */
function components(horizontals: Horizontal[], verticals: Vertical[]) {
  const parent = [...horizontals, ...verticals].map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  horizontals.forEach((h, i) =>
    verticals.forEach((v, j) => {
      if (crosses(h, v)) parent[find(i)] = find(horizontals.length + j);
    }),
  );
  const asLine = {
    h: (h: Horizontal) => ({ at: h.y, from: h.x0, to: h.x1 }),
    v: (v: Vertical) => ({ at: v.x, from: v.y0, to: v.y1 }),
  };
  horizontals.forEach((a, i) =>
    horizontals.forEach((b, j) => {
      if (j > i && doubled(asLine.h(a), asLine.h(b))) parent[find(i)] = find(j);
    }),
  );
  verticals.forEach((a, i) =>
    verticals.forEach((b, j) => {
      if (j > i && doubled(asLine.v(a), asLine.v(b)))
        parent[find(horizontals.length + i)] = find(horizontals.length + j);
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
  const inside = (run: TextRun) =>
    run.x < right && run.x + run.width > left && run.y > top && run.y - run.size < bottom;
  // The words of the table: those whose middle is inside it, as its cells take them.
  const tableWords = runs
    .filter((run) => run.text.trim() !== '' && inside(run))
    .flatMap(words)
    .filter((word) => {
      const [cx, cy] = [word.x + word.width / 2, word.y - word.size * 0.3];
      return cx >= left && cx <= right && cy >= top && cy <= bottom;
    });
  const em = tableWords.length > 0 ? median(tableWords.map((word) => word.size)) : 10;
  const ys = inkedTracks(
    tracks([top, bottom, ...horizontals.map((h) => h.y)]),
    tableWords.map((word) => word.y - word.size * 0.3),
    (y) => drawnLength(horizontals.filter((h) => Math.abs(h.y - y) <= SNAP).map((h) => [h.x0, h.x1])),
    em,
  );
  const xs = inkedTracks(
    tracks([left, right, ...verticals.map((v) => v.x)]),
    tableWords.map((word) => word.x + word.width / 2),
    (x) => drawnLength(verticals.filter((v) => Math.abs(v.x - x) <= SNAP).map((v) => [v.y0, v.y1])),
    em,
  );
  if (!ys || !xs) return undefined;
  // Columns the table does not rule are found in the whitespace between its words; a frame
  // with no column rule at all (a box around a page of two columns) is not a table.
  const corridors = new Set<number>();
  const ruledColumns = xs.length - 1;
  for (let c = ruledColumns - 1; c >= 0 && ruledColumns >= 2; c--) {
    const found = corridorsIn(
      tableWords.filter((word) => word.x + word.width / 2 >= xs[c] && word.x + word.width / 2 < xs[c + 1]),
    );
    for (const x of found) corridors.add(x);
    xs.splice(c + 1, 0, ...found);
  }
  // Rows the table does not rule (lines only above and below its body) are split where its columns' lines start together.
  const unruled = new Set<number>();
  for (let r = ys.length - 2; r >= 0; r--) {
    // Rows are at least a track high: two lines opening one row (a name beside a figure set in
    // smaller type, whose tops differ by a point) open it once.
    const starts: number[] = [];
    const found = rowStarts(
      tableWords.filter((word) => word.y - word.size * 0.3 >= ys[r] && word.y - word.size * 0.3 < ys[r + 1]),
      xs,
    );
    for (const y of found.sort((a, b) => a - b)) {
      if (y - (starts[starts.length - 1] ?? ys[r]) >= MIN_TRACK && ys[r + 1] - y >= MIN_TRACK) starts.push(y);
    }
    for (const y of starts) unruled.add(y);
    ys.splice(r + 1, 0, ...starts);
  }
  const rowCount = ys.length - 1;
  const columnCount = xs.length - 1;
  if (rowCount < 2 || columnCount < 2) return undefined;

  // A boundary between two slots is drawn when a rule covers the middle of their shared edge.
  const drawnVertical = (x: number, y: number) =>
    corridors.has(x) || verticals.some((v) => Math.abs(v.x - x) <= SNAP && v.y0 <= y && v.y1 >= y);
  const drawnHorizontal = (y: number, x: number) =>
    unruled.has(y) || horizontals.some((h) => Math.abs(h.y - y) <= SNAP && h.x0 <= x && h.x1 >= x);
  const slot = (r: number, c: number) => r * columnCount + c;
  const parent = Array.from({ length: rowCount * columnCount }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  // Words on both sides of an undrawn column boundary, none across it, are two cells: a table
  // that rules its columns only in the header (or not at all) keeps its body's columns.
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
      rows[b.r0].push({
        text: cellText(b.runs),
        rowspan: b.r1 - b.r0 + 1,
        colspan: b.c1 - b.c0 + 1,
        box: [xs[b.c0], ys[b.r0], xs[b.c1 + 1], ys[b.r1 + 1]],
      });
    }
  }
  const size = sizes.sort((a, b) => a - b)[Math.floor(sizes.length / 2)] ?? 10;
  return { table: { top, bottom, left, right, rows: rows.filter((row) => row.length > 0), size }, rest };
}

/** A cell's runs read as lines, top to bottom, joined with single spaces (hyphenation mended, dot leaders dropped). */
function cellText(runs: TextRun[]): string {
  const lines = buildLines(runs).map((line) => line.text);
  return lines.length === 0 ? '' : withoutLeaders(lines.reduce(mend));
}
