/**
 * Pages set sideways: a landscape table printed on a portrait page, its text running up or down
 * the paper. Such a page is read turned upright (its text, rules and pictures moved into the
 * turned frame), so that its lines, columns and tables are found as on any page; the boxes it
 * reports are turned back into the page's own frame.
 */
import type { Box } from '@docconv/model';

/** Which way the text of a sideways page runs: `up` (turned a quarter anticlockwise) or `down`. */
export type Turn = 'up' | 'down';

/** The share of a page's characters that must run one way for the page to be read turned. */
const SIDEWAYS_SHARE = 2 / 3;

/** A text item's matrix and length, as pdf.js gives it. */
interface Item {
  str: string;
  transform: number[];
}

/** The way most of a page's text runs when that is sideways (SIDEWAYS_SHARE of its characters); upright pages have none. */
export function pageTurn(items: readonly Item[]): Turn | undefined {
  const count = { upright: 0, up: 0, down: 0 };
  for (const item of items) {
    const [a, b] = item.transform;
    const chars = item.str.replace(/\s+/g, '').length;
    count[Math.abs(b) <= Math.abs(a) ? 'upright' : b > 0 ? 'up' : 'down'] += chars;
  }
  const total = count.upright + count.up + count.down;
  if (total === 0) return undefined;
  if (count.up >= total * SIDEWAYS_SHARE) return 'up';
  if (count.down >= total * SIDEWAYS_SHARE) return 'down';
  return undefined;
}

/**
 * A text item's matrix in the turned page's user space (origin bottom left, `y` up), for a page
 * whose view is `[x0, y0, x1, y1]`. Up: the page is turned clockwise, a point (u, v) goes to
 * (v, width − u); down: anticlockwise, to (height − v, u).
 */
export function turnedTransform(transform: number[], turn: Turn, view: number[]): number[] {
  const [a, b, c, d, e, f] = transform;
  const [x0, y0, x1, y1] = view;
  const u = e - x0;
  const v = f - y0;
  return turn === 'up' ? [b, -a, d, -c, v, x1 - x0 - u] : [-b, a, -d, c, y1 - y0 - v, u];
}

/** The view of the turned page: as tall as the page is wide. */
export function turnedView(view: number[]): number[] {
  const [x0, y0, x1, y1] = view;
  return [0, 0, y1 - y0, x1 - x0];
}

/** A box given from the page's top left, `{x0, y0, x1, y1}`, in the turned page of a page `width` by `height`. */
export function turnedRect<T extends { x0: number; y0: number; x1: number; y1: number }>(
  rect: T,
  turn: Turn,
  width: number,
  height: number,
): T {
  const { x0, y0, x1, y1 } = rect;
  return turn === 'up'
    ? { ...rect, x0: height - y1, y0: x0, x1: height - y0, y1: x1 }
    : { ...rect, x0: y0, y0: width - x1, x1: y1, y1: width - x0 };
}

/** A box `[left, top, right, bottom]` of a turned page `width` by `height` (turned units) in the page's own frame. */
export function unturnedBox(box: Box, turn: Turn, width: number, height: number): Box {
  const [l, t, r, b] = box;
  return turn === 'up' ? [t, width - r, b, width - l] : [height - b, l, height - t, r];
}
