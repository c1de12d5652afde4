import { writeMarkdown, type Block, type Document } from '@docconv/model';
import { placedPage, type PlacedPage } from '../blocks/placement';
import { withFootnotes } from './footnotes';
import { withoutFurniture } from './furniture';
import type { Line, PageLines } from './layout';
import { layoutBlocks, placedBox, type OrderedPage } from './layout-blocks';
import { withLinks } from './links';
import { lineBox } from './model-blocks';
import { orderLines } from './reading-order';

/** Laid-out pages: the document, its Markdown, and the pages' lines placed (for files the structured result reads by text). */
export interface LaidOut {
  document: Document;
  markdown: string;
  placed: PlacedPage[];
}

/** The document of laid-out pages of `file`, its Markdown, and the pages' lines placed. */
export function laidOut(pages: PageLines[], file = ''): LaidOut {
  const furniture: Line[][] = [];
  const document = layoutModel(pages, file, furniture);
  return {
    document,
    markdown: writeMarkdown(document),
    placed: pages.map((page, i) => placedPage(page, furniture[i] ?? [])),
  };
}

/** The Markdown of laid-out pages (layoutModel written). */
export function layoutDocument(pages: PageLines[]): string {
  return writeMarkdown(layoutModel(pages, ''));
}

/**
 * The document-wide part of the layout: body size, heading sizes, margins, reading order, then
 * the blocks. Running heads and page numbers become furniture blocks, on their page (heads
 * before its first block, feet after its last); `furniture`, when given, receives each page's
 * lines dropped as such.
 */
export function layoutModel(pages: PageLines[], file: string, furniture?: Line[][]): Document {
  const weights = new Map<number, number>();
  for (const page of pages) {
    for (const line of page.lines) {
      const size = Math.round(line.size * 2) / 2;
      weights.set(size, (weights.get(size) ?? 0) + line.text.length);
    }
  }
  const bodySize = [...weights.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
  // Heading levels from how much larger than the body the type is, numbered from 1 over the
  // sizes this document really uses (a cover page's giant type does not push every section
  // heading down to level 4).
  const bucket = (size: number) => (size >= bodySize * 1.6 ? 1 : size >= bodySize * 1.3 ? 2 : 3);
  const headingSizes = [...weights.keys()].filter((s) => s >= bodySize * 1.15);
  const used = [...new Set(headingSizes.map(bucket))].sort((a, b) => a - b);
  const headingLevels = new Map(headingSizes.map((s) => [s, used.indexOf(bucket(s)) + 1]));
  const fonts = new Map<string, number>();
  let [mono, all] = [0, 0];
  for (const line of pages.flatMap((page) => page.lines)) {
    for (const run of line.runs) {
      if (run.font) fonts.set(run.font, (fonts.get(run.font) ?? 0) + run.text.length);
      all += run.text.length;
      if (run.mono) mono += run.text.length;
    }
  }
  const bodyFont = [...fonts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const bodyMono = mono > all / 2;
  const kept = withoutFurniture(pages, bodySize);
  const dropped = kept.map((page, i) => {
    const stays = new Set(page.lines);
    return pages[i].lines.filter((line) => !stays.has(line));
  });
  if (furniture) furniture.push(...dropped);
  const ordered = withFootnotes(kept, bodySize).map((page, i) => ({
    number: page.number ?? i + 1,
    width: page.width,
    height: page.height,
    scale: page.scale,
    turn: page.turn,
    lines: page.ordered ? page.lines : orderLines(page),
  }));
  const links = new Map(pages.flatMap((page, i) => (page.links ? [[page.number ?? i + 1, page.links] as const] : [])));
  const blocks = withLinks(layoutBlocks(ordered, { bodySize, bodyFont, bodyMono, headingLevels }, file), links);
  return { version: 1, blocks: withFurniture(blocks, ordered, dropped, file) };
}

/** The blocks with each page's furniture put in: its running heads before the page's first block, its feet after its last. */
function withFurniture(blocks: Block[], pages: Omit<OrderedPage, 'lines'>[], dropped: Line[][], file: string): Block[] {
  if (dropped.every((lines) => lines.length === 0)) return blocks;
  const heads = new Map<number, Block[]>();
  const feet = new Map<number, Block[]>();
  for (const [i, page] of pages.entries()) {
    for (const line of dropped[i] ?? []) {
      const role = line.y < page.height / 2 ? 'header' : 'footer';
      const box = placedBox([lineBox(line, page.height)], page);
      const block: Block = {
        type: 'furniture',
        role,
        text: line.text,
        from: { file, page: page.number, ...(box ? { box } : {}) },
      };
      const into = role === 'header' ? heads : feet;
      into.set(page.number, [...(into.get(page.number) ?? []), block]);
    }
  }
  const out: Block[] = [];
  const flush = (before: number, map: Map<number, Block[]>) => {
    for (const [page, list] of [...map.entries()].sort((a, b) => a[0] - b[0])) {
      if (page >= before) continue;
      out.push(...list);
      map.delete(page);
    }
  };
  for (const block of blocks) {
    const page = block.from.page ?? 0;
    flush(page, feet);
    flush(page + 1, heads);
    out.push(block);
  }
  flush(Infinity, feet);
  flush(Infinity, heads);
  return out;
}
