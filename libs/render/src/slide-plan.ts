import type { Block, HeadingBlock } from './document-blocks';
import { type SlideTable } from './slide-table';

import { Paginator } from './slide-paginator';
import { blockUnits, type PictureSize, type SlideParagraph } from './slide-units';

export {
  fontSizeOf,
  paragraphCost,
  paragraphUnits,
  type ParagraphStyle,
  type PictureSize,
  type SlideParagraph,
} from './slide-units';

/** A picture placed on a slide: its link target and alt text, and its size in inches. */
export interface SlidePicture {
  src: string;
  alt: string;
  w: number;
  h: number;
}

export type SlideItem =
  | { kind: 'text'; paragraphs: SlideParagraph[]; lines: number }
  | { kind: 'table'; table: SlideTable; lines: number }
  | { kind: 'picture'; picture: SlidePicture; lines: number };

export interface PlannedSlide {
  title: string;
  items: SlideItem[];
  /** Body lines used, at most MAX_BODY_LINES. */
  lines: number;
  /** Text that did not fit on the slide, in full, for its speaker notes. */
  notes: string[];
}

export interface DeckPlan {
  /** The document's title, for the title slide. */
  title: string;
  slides: PlannedSlide[];
}

/**
 * Plans a deck: the title slide's title, then content slides. The title is the document's first `#` heading
 * (taken out of the content when it is the only one, so it never makes a slide of its own), else the file
 * name without its extension. Content is cut into sections at the highest heading level it uses; content
 * before the first such heading is a section of its own. A section opens a new slide titled with its
 * heading, unless the slide before is less than half full: then it continues there under its heading as a
 * subheading, so a heading with no text of its own never stands on an empty slide and short sections share
 * a slide. Slides break only between paragraphs, list items and table rows; a paragraph longer than a whole
 * slide breaks between sentences, and a sentence longer than a slide is shortened with "…" on the slide and
 * written in full in the slide's speaker notes. Pictures with a known size (`pictures`, by link target) are
 * placed fitted to the space; the others are written as their alt text.
 */
export function planDeck(
  blocks: Block[],
  fileName: string,
  pictures: ReadonlyMap<string, PictureSize> = new Map(),
): DeckPlan {
  const { title, body } = takeTitle(blocks, fileName);
  const paginator = new Paginator();
  for (const section of splitSections(body)) {
    paginator.addSection(
      section.heading,
      section.blocks.flatMap((block) => blockUnits(block, pictures)),
    );
  }
  return { title, slides: paginator.finish(title) };
}

/** The deck's title and the blocks left to lay out. */
function takeTitle(blocks: Block[], fileName: string): { title: string; body: Block[] } {
  const tops = blocks.filter((block): block is HeadingBlock => block.kind === 'heading' && block.depth === 1);
  const top = tops.find((heading) => heading.text.trim() !== '');
  if (!top) return { title: fileTitle(fileName), body: blocks };
  return { title: top.text, body: tops.length === 1 ? blocks.filter((block) => block !== top) : blocks };
}

/** A file name as a title: no folders, no extension, underscores read as spaces ("q3_sales.pdf" → "q3 sales"). */
export function fileTitle(fileName: string): string {
  const title = fileName
    .replace(/^.*[\\/]/, '')
    .replace(/\.[^.\s]{1,5}$/, '')
    .replace(/_+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return title || fileName.trim();
}

interface Section {
  /** Null for the content before the first heading. */
  heading: string | null;
  blocks: Block[];
}

function splitSections(blocks: Block[]): Section[] {
  const depths = blocks.flatMap((block) => (block.kind === 'heading' ? [block.depth] : []));
  const splitDepth = Math.min(...depths);
  const sections: Section[] = [{ heading: null, blocks: [] }];
  for (const block of blocks) {
    if (block.kind === 'heading' && block.depth === splitDepth) sections.push({ heading: block.text, blocks: [] });
    else sections[sections.length - 1].blocks.push(block);
  }
  return sections;
}
