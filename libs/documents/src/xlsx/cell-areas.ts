import type { Grid } from './sheet-cells';

/**
 * The blocks of cells a worksheet holds: rectangles of used cells (merged areas whole) set
 * apart by wholly empty rows or columns, or touching another only at a corner. Each becomes
 * one table.
 */

/** A rectangle of cells, 1-based and inclusive. */
export interface Area {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/**
 * Splits the used cells into rectangular blocks separated by wholly empty rows or columns,
 * cutting recursively (rows first), so side-by-side and stacked tables come out apart and
 * each block is trimmed of empty edges.
 */
export function blocksOf(grid: Grid): (Area & { filled: number })[] {
  const cells: Area[] = [];
  for (const [row, line] of grid.cells) {
    for (const col of line.keys()) {
      const merge = grid.merges.get(`${row}:${col}`);
      cells.push({ top: row, left: col, bottom: merge?.bottom ?? row, right: merge?.right ?? col });
    }
  }
  const blocks: (Area & { filled: number })[] = [];
  // each pass splits along one axis; a group that does not split is tried along the other
  const work: { group: Area[]; byRows: boolean; triedOther: boolean }[] = [];
  if (cells.length > 0) work.push({ group: cells, byRows: true, triedOther: false });
  for (let task = work.pop(); task; task = work.pop()) {
    const { group, byRows, triedOther } = task;
    const start = (b: Area) => (byRows ? b.top : b.left);
    const end = (b: Area) => (byRows ? b.bottom : b.right);
    const parts: Area[][] = [];
    let reach = -Infinity;
    for (const cell of [...group].sort((a, b) => start(a) - start(b))) {
      if (start(cell) > reach + 1) parts.push([]);
      parts[parts.length - 1].push(cell);
      reach = Math.max(reach, end(cell));
    }
    if (parts.length > 1) work.push(...parts.map((part) => ({ group: part, byRows: !byRows, triedOther: false })));
    else if (!triedOther) work.push({ group, byRows: !byRows, triedOther: true });
    else {
      const groups = cornerGroups(group);
      if (groups.length > 1) work.push(...groups.map((g) => ({ group: g, byRows: true, triedOther: false })));
      else blocks.push({ ...boundsOf(group), filled: group.reduce((n, cell) => n + areaOf(cell), 0) });
    }
  }
  return blocks;
}

/** Cells of a merged area larger than this join their neighbours through the top-left cell only. */
const MAX_MERGE_LINKS = 10_000;

/**
 * Tables that touch only at a corner (one ends where the next begins, diagonally): groups of
 * edge-connected cells whose extents share no row and no column. One group when there are none.
 */
function cornerGroups(cells: Area[]): Area[][] {
  const key = (row: number, col: number) => row * 20_000 + col; // columns stop at 16,384
  const owner = new Map<number, number>();
  cells.forEach((cell, i) => {
    const whole = areaOf(cell) <= MAX_MERGE_LINKS;
    for (let r = cell.top; r <= (whole ? cell.bottom : cell.top); r++)
      for (let c = cell.left; c <= (whole ? cell.right : cell.left); c++) owner.set(key(r, c), i);
  });
  const parent = cells.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const union = (a: number, b: number) => {
    const x = find(a);
    const y = find(b);
    if (x !== y) parent[x] = y;
  };
  for (const [at, i] of owner) {
    for (const next of [at + 1, at + 20_000]) {
      const j = owner.get(next);
      if (j !== undefined) union(i, j);
    }
  }
  const components = new Map<number, Area[]>();
  cells.forEach((cell, i) => {
    const root = find(i);
    const members = components.get(root);
    if (members) members.push(cell);
    else components.set(root, [cell]);
  });
  if (components.size === 1) return [cells];
  // components whose extents overlap in rows or in columns belong to the same table
  let parts = [...components.values()].map((members) => ({ members, bounds: boundsOf(members) }));
  for (let count = Infinity; parts.length > 1 && parts.length < count;) {
    count = parts.length;
    parts = joinOverlapping(joinOverlapping(parts, 'rows'), 'columns');
  }
  return parts.map((part) => part.members);
}

interface Part {
  members: Area[];
  bounds: Area;
}

function joinOverlapping(parts: Part[], axis: 'rows' | 'columns'): Part[] {
  const start = (b: Area) => (axis === 'rows' ? b.top : b.left);
  const end = (b: Area) => (axis === 'rows' ? b.bottom : b.right);
  const joined: Part[] = [];
  for (const part of [...parts].sort((a, b) => start(a.bounds) - start(b.bounds))) {
    const last = joined[joined.length - 1];
    if (last && start(part.bounds) <= end(last.bounds)) {
      for (const cell of part.members) last.members.push(cell);
      last.bounds = boundsOf([last.bounds, part.bounds]);
    } else joined.push({ members: [...part.members], bounds: part.bounds });
  }
  return joined;
}

/** How many cells a block covers. */
function areaOf(block: Area): number {
  return (block.bottom - block.top + 1) * (block.right - block.left + 1);
}

function boundsOf(cells: Area[]): Area {
  const bounds = { ...cells[0] };
  for (const c of cells) {
    bounds.top = Math.min(bounds.top, c.top);
    bounds.left = Math.min(bounds.left, c.left);
    bounds.bottom = Math.max(bounds.bottom, c.bottom);
    bounds.right = Math.max(bounds.right, c.right);
  }
  return bounds;
}
