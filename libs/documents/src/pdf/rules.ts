/**
 * What a page draws besides text, from its drawing operators, in page coordinates measured from
 * the top-left corner (like the text runs): ruling lines (the horizontal and vertical strokes,
 * and the thin filled rectangles that PDF producers draw rules with), and the extents of the
 * shapes that are not rules (curves, diagonals, polygons: what charts and diagrams are drawn
 * with). Clipping paths draw nothing and are left out.
 */
export interface Rule {
  /** Horizontal: y0 === y1 and x0 < x1. Vertical: x0 === x1 and y0 < y1. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The subset of pdf.js's OPS table this module reads. */
export interface DrawingOps {
  save: number;
  restore: number;
  transform: number;
  constructPath: number;
  setFillRGBColor: number;
  stroke: number;
  closeStroke: number;
  fill: number;
  eoFill: number;
  fillStroke: number;
  eoFillStroke: number;
  closeFillStroke: number;
  closeEOFillStroke: number;
}

type Matrix = [number, number, number, number, number, number];

/** pdf.js path buffer opcodes (its `DrawOPS`, which the package does not export). */
const DRAW_OPS = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const;

/** A filled rectangle this thin or thinner is a rule, not a shaded area. */
const THIN = 3;
/** Fills lighter than this do not show on a white page. */
const NEAR_WHITE = 0.95;

/** Lightness (mean of the channels, 0…1) of a pdf.js `#rrggbb` colour; unknown colours count as black. */
function lightness(color: unknown): number {
  const match = typeof color === 'string' ? /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color) : null;
  if (!match) return 0;
  return (parseInt(match[1], 16) + parseInt(match[2], 16) + parseInt(match[3], 16)) / (3 * 255);
}

const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

/** The extent of a shape drawn on the page. */
export interface Shape {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Rules drawn on a page. */
export function pageRules(
  operators: { fnArray: number[]; argsArray: unknown[] },
  ops: DrawingOps,
  view: number[],
): Rule[] {
  return pageDrawing(operators, ops, view).rules;
}

/**
 * Rules and shapes drawn on a page, from `page.getOperatorList()`. `view` is the page's view box;
 * the result's y grows downwards from its top edge.
 */
export function pageDrawing(
  operators: { fnArray: number[]; argsArray: unknown[] },
  ops: DrawingOps,
  view: number[],
): { rules: Rule[]; shapes: Shape[] } {
  const [left, bottom, right, top] = view;
  const width = right - left;
  const height = top - bottom;
  const strokes = new Set([ops.stroke, ops.closeStroke]);
  const fills = new Set([
    ops.fill,
    ops.eoFill,
    ops.fillStroke,
    ops.eoFillStroke,
    ops.closeFillStroke,
    ops.closeEOFillStroke,
  ]);
  const rules: Rule[] = [];
  const shapes: Shape[] = [];
  const stack: { ctm: Matrix; fill: number }[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let fill = 0; // lightness of the fill colour, 0 black … 1 white
  for (let i = 0; i < operators.fnArray.length; i++) {
    const fn = operators.fnArray[i];
    if (fn === ops.save) stack.push({ ctm, fill });
    else if (fn === ops.restore) ({ ctm, fill } = stack.pop() ?? { ctm, fill });
    else if (fn === ops.transform) ctm = multiply(ctm, operators.argsArray[i] as Matrix);
    else if (fn === ops.setFillRGBColor) fill = lightness((operators.argsArray[i] as unknown[])[0]);
    else if (fn === ops.constructPath) {
      const [paint, [buffer]] = operators.argsArray[i] as [number, [ArrayLike<number> | null]];
      if (!buffer || !(strokes.has(paint) || fills.has(paint))) continue;
      // A fill in white or near-white (a cell's background on a white page) draws no line.
      if (!strokes.has(paint) && fill > NEAR_WHITE) continue;
      const toPage = (x: number, y: number): [number, number] => [
        ctm[0] * x + ctm[2] * y + ctm[4] - left,
        top - (ctm[1] * x + ctm[3] * y + ctm[5]),
      ];
      for (const { points, curved } of subpaths(buffer)) {
        const onPage = points.map(([x, y]) => toPage(x, y));
        // A path of axis-aligned steps is rules (a thin rectangle's short sides included), anything else a shape.
        if (curved || !onPage.every((p, k) => k === 0 || axisStep(onPage[k - 1], p))) {
          shapes.push(extent(onPage));
        } else if (strokes.has(paint)) rules.push(...segments(onPage));
        else rules.push(...filledRules(onPage, width * height));
      }
    }
  }
  // What lies off the page (a spread's other half, bleed) cannot frame or picture anything on it.
  const onPage = (r: Rule | Shape) => r.x1 >= 0 && r.x0 <= width && r.y1 >= 0 && r.y0 <= height;
  const pageArea = width * height;
  return {
    rules: rules.filter(onPage),
    // A shape covering much of the page is a background, not a picture.
    shapes: shapes.filter((r) => onPage(r) && (r.x1 - r.x0) * (r.y1 - r.y0) < pageArea * 0.4),
  };
}

/** A step along one axis (or none): its other coordinate stays within half a point. */
const axisStep = ([ax, ay]: [number, number], [bx, by]: [number, number]) =>
  Math.abs(ax - bx) < 0.5 || Math.abs(ay - by) < 0.5;

function extent(points: [number, number][]): Shape {
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (const [x, y] of points) {
    box.x0 = Math.min(box.x0, x);
    box.y0 = Math.min(box.y0, y);
    box.x1 = Math.max(box.x1, x);
    box.y1 = Math.max(box.y1, y);
  }
  return box;
}

/** The subpaths of a path buffer: their points (a curve's control points among them), and whether they curve. */
function subpaths(buffer: ArrayLike<number>): { points: [number, number][]; curved: boolean }[] {
  const out: { points: [number, number][]; curved: boolean }[] = [];
  let current: [number, number][] = [];
  let curved = false;
  const finish = () => {
    if (current.length >= 2) out.push({ points: current, curved });
    current = [];
    curved = false;
  };
  for (let k = 0; k < buffer.length;) {
    const op = buffer[k++];
    if (op === DRAW_OPS.moveTo) {
      finish();
      current.push([buffer[k], buffer[k + 1]]);
      k += 2;
    } else if (op === DRAW_OPS.lineTo) {
      current.push([buffer[k], buffer[k + 1]]);
      k += 2;
    } else if (op === DRAW_OPS.curveTo) {
      curved = true;
      for (let c = 0; c < 6; c += 2) current.push([buffer[k + c], buffer[k + c + 1]]);
      k += 6;
    } else if (op === DRAW_OPS.quadraticCurveTo) {
      curved = true;
      for (let c = 0; c < 4; c += 2) current.push([buffer[k + c], buffer[k + c + 1]]);
      k += 4;
    } else if (op === DRAW_OPS.closePath) {
      if (current.length > 2) current.push(current[0]);
      finish();
    } else {
      break; // an opcode this reader does not know: stop rather than misread the rest
    }
  }
  finish();
  return out;
}

/** The axis-aligned segments of a stroked polyline. */
function segments(points: [number, number][]): Rule[] {
  const out: Rule[] = [];
  for (let i = 1; i < points.length; i++) {
    const rule = axisRule(points[i - 1], points[i]);
    if (rule) out.push(rule);
  }
  return out;
}

function axisRule([ax, ay]: [number, number], [bx, by]: [number, number]): Rule | undefined {
  if (Math.abs(ay - by) < 0.5 && Math.abs(ax - bx) >= 1) {
    const y = (ay + by) / 2;
    return { x0: Math.min(ax, bx), y0: y, x1: Math.max(ax, bx), y1: y };
  }
  if (Math.abs(ax - bx) < 0.5 && Math.abs(ay - by) >= 1) {
    const x = (ax + bx) / 2;
    return { x0: x, y0: Math.min(ay, by), x1: x, y1: Math.max(ay, by) };
  }
  return undefined;
}

/**
 * A filled axis-aligned rectangle: a thin one is a rule through its middle; a larger one (a
 * shaded cell or row) contributes its four edges, which are cell boundaries as much as drawn
 * lines are. A rectangle covering much of the page is a background and frames nothing.
 */
function filledRules(points: [number, number][], pageArea: number): Rule[] {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const aligned = points.every(([x, y], i) => {
    const [px, py] = points[i === 0 ? points.length - 1 : i - 1];
    return Math.abs(x - px) < 0.5 || Math.abs(y - py) < 0.5;
  });
  if (!aligned || points.length < 4 || points.length > 5) return [];
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs);
  const y0 = Math.min(...ys);
  const y1 = Math.max(...ys);
  const width = x1 - x0;
  const height = y1 - y0;
  if (width < 1 && height < 1) return [];
  if (width * height > pageArea * 0.4) return []; // a page or panel background
  if (height <= THIN) return width > height ? [{ x0, y0: (y0 + y1) / 2, x1, y1: (y0 + y1) / 2 }] : [];
  if (width <= THIN) return [{ x0: (x0 + x1) / 2, y0, x1: (x0 + x1) / 2, y1 }];
  return [
    { x0, y0, x1, y1: y0 },
    { x0, y0: y1, x1, y1 },
    { x0, y0, x1: x0, y1 },
    { x0: x1, y0, x1, y1 },
  ];
}
