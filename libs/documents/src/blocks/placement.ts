import type { Line, PageLines } from '../pdf/layout';
import { lineBox, originalBox, originalSize } from '../pdf/model-blocks';
import { segmentLines } from '../pdf/reading-order';

/** `[left, top, right, bottom]` in the page's units (PDF points; an image's pixels), from its top-left corner. */
export type Box = [number, number, number, number];

export interface PlacedLine {
  text: string;
  box: Box;
}

/** A page (or image frame) as read: its size and its lines with their boxes; running heads and page numbers apart. */
export interface PlacedPage {
  page: number;
  width: number;
  height: number;
  lines: PlacedLine[];
  /** Lines the Markdown leaves out as page furniture (running heads, page numbers). */
  furniture: PlacedLine[];
}

/** Where a block stands on its page; `estimated` when no line of the page carries its text (the band between its neighbours). */
export interface Placement {
  page: number;
  box: Box;
  estimated: boolean;
}

/** A laid-out page's lines with boxes in the units of its original (PDF points, image pixels). */
export function placedPage(page: PageLines, furniture: Line[]): PlacedPage {
  const place = (line: Line): PlacedLine => {
    return { text: line.block ?? line.text, box: originalBox(lineBox(line, page.height), page) };
  };
  return {
    page: page.number ?? 1,
    ...originalSize(page),
    // The OCR engine's own lines where the page is one block; otherwise the lines split at wide
    // gaps (a two-column page's line runs across the gutter until its reading splits it).
    lines: page.anchors
      ? page.anchors.map((anchor) => ({ text: anchor.text, box: originalBox(anchor.box, page) }))
      : segmentLines(page.lines).map(place),
    furniture: segmentLines(furniture).map(place),
  };
}

/** Letters and digits only, case folded: how a block's text and a line's text are compared. */
export function matchKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** Pages around the last placed block searched first (a float may sit a page back; blank or failed pages may come between). */
const BEHIND = 1;
const AHEAD = 3;
/** A line this short anchors only a block that is exactly it (a "1" or "of" matches everywhere). */
const MIN_ANCHOR = 4;

/**
 * Each block's page and box, found by the lines of the pages that carry its text: the page whose
 * lines cover most of the block (searched near the previous block's page first, in reading
 * order), and the union of those lines' boxes. A line is used by one block where it can be.
 * A block no line carries (a heading the file's name made, a separator) gets the band between
 * the blocks before and after it on the page of the one before, marked estimated.
 */
export function placeBlocks(texts: string[], pages: PlacedPage[]): Placement[] {
  if (pages.length === 0) return [];
  const keys = pages.map((page) => page.lines.map((line) => matchKey(line.text)));
  const used = pages.map((page) => page.lines.map(() => false));
  let cursor = 0;
  const found: (Omit<Placement, 'estimated'> | undefined)[] = texts.map((text) => {
    const key = matchKey(text);
    if (key === '') return undefined;
    const matches = (p: number, fresh: boolean): number[] =>
      keys[p].flatMap((line, i) => {
        if (line === '' || (fresh && used[p][i])) return [];
        const anchors =
          line === key ||
          (line.length >= MIN_ANCHOR && key.includes(line)) ||
          (key.length >= MIN_ANCHOR * 2 && line.includes(key));
        return anchors ? [i] : [];
      });
    const score = (p: number, lines: number[]) =>
      lines.reduce((sum, i) => sum + Math.min(keys[p][i].length, key.length), 0);
    const best = (candidates: number[]) => {
      let choice: { page: number; lines: number[]; score: number } | undefined;
      for (const fresh of [true, false]) {
        for (const p of candidates) {
          const lines = matches(p, fresh);
          const s = score(p, lines);
          if (s > 0 && (!choice || s > choice.score)) choice = { page: p, lines, score: s };
        }
        if (choice) return choice;
      }
      return undefined;
    };
    const near = range(Math.max(0, cursor - BEHIND), Math.min(pages.length - 1, cursor + AHEAD));
    const choice = best(near) ?? best(range(0, pages.length - 1).filter((p) => !near.includes(p)));
    if (!choice) return undefined;
    cursor = choice.page;
    for (const i of choice.lines) used[choice.page][i] = true;
    const boxes = choice.lines.map((i) => pages[choice.page].lines[i].box);
    return { page: choice.page, box: union(boxes) };
  });
  // The nearest placed block before and after each block.
  const previous: (typeof found)[number][] = [];
  const next: (typeof found)[number][] = [];
  for (let i = 0, last: (typeof found)[number]; i < found.length; i++) previous[i] = last = found[i] ?? last;
  for (let i = found.length - 1, last: (typeof found)[number]; i >= 0; i--) next[i] = last = found[i] ?? last;
  return found.map((placement, i) => {
    if (placement) return { page: pages[placement.page].page, box: placement.box, estimated: false };
    const before = previous[i];
    const pageIndex = before?.page ?? next[i]?.page ?? 0;
    const page = pages[pageIndex];
    const after = next[i];
    const top = before?.page === pageIndex ? before.box[3] : 0;
    const bottom = after?.page === pageIndex && after.box[1] > top ? after.box[1] : page.height;
    return { page: page.page, box: [0, top, page.width, Math.max(top, bottom)], estimated: true };
  });
}

function range(first: number, last: number): number[] {
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
}

function union(boxes: Box[]): Box {
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}
