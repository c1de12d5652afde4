import { withPageFurniture, writeMarkdownSpans, type Block, type Document, type PageFurniture } from '@docconv/model';
import type { PageReport } from '../ocr/ocr-page';
import { withFailedPages } from '../page-failure';
import type { PlacedPage } from '../blocks/placement';
import type { PageLines } from './layout';
import { laidOut } from './layout-document';

/** One page of a file's result: its stretch of the file's Markdown and its blocks. */
export interface PageMarkdown {
  page: number;
  /**
   * The page's Markdown: from the end of the page before's last block (the blank line between them
   * included) to the end of its own last block; the last page ends the file's Markdown. A file's
   * pages joined are its Markdown exactly.
   */
  markdown: string;
  blocks: Block[];
}

/** The page a block belongs to: its own, else that of the block before it (a file's blocks are in page order). */
function pagesOfBlocks(blocks: readonly Block[]): number[] {
  let page = 0;
  return blocks.map((block) => (page = block.from.page ?? page));
}

/**
 * A document's Markdown cut by page (see PageMarkdown), one entry for each of `pages` and each page
 * a block stands on (a page with no block has an empty stretch).
 */
export function pageStretches(document: Document, pages: readonly number[]): PageMarkdown[] {
  const { markdown, blocks } = writeMarkdownSpans(document);
  const spans = new Map(blocks.map((written) => [written.block, written.span]));
  const pageOf = pagesOfBlocks(document.blocks);
  const ends = new Map<number, number>(); // page → end of its last written block
  const own = new Map<number, Block[]>();
  document.blocks.forEach((block, i) => {
    own.set(pageOf[i], [...(own.get(pageOf[i]) ?? []), block]);
    const span = spans.get(block);
    if (span) ends.set(pageOf[i], span[1]);
  });
  const ordered = [...new Set([...pages, ...own.keys()])].filter((page) => page > 0).sort((a, b) => a - b);
  let start = 0;
  return ordered.map((page, i) => {
    const end = i === ordered.length - 1 ? markdown.length : (ends.get(page) ?? start);
    const stretch = { page, markdown: markdown.slice(start, end), blocks: own.get(page) ?? [] };
    start = end;
    return stretch;
  });
}

/**
 * Pages settled as they are read (see SettledPages), each handed to `onPages` as final, with the
 * job's page furniture already applied.
 */
export interface Settle {
  furniture: PageFurniture;
  onPages: (pages: PageMarkdown[]) => void;
}

/** A page is settled once this many pages after it are read… */
const LOOKAHEAD = 2;

/**
 * The pages of a PDF read page by page (OCR'd pages take seconds to minutes each), settled one
 * after the other while the rest are still being read, so that each can be delivered as final: the
 * pages read so far are laid out as a document each time one more is delivered, and the first page
 * not yet settled settles once LOOKAHEAD pages after it are read and its blocks came out the same
 * in the last two layouts (a paragraph or table running on, running heads and heading levels have
 * then had their say). A settled page never changes: the file's document is its settled pages'
 * blocks followed by the final layout's blocks of the pages after them, and its Markdown their
 * stretches joined.
 */
export class SettledPages {
  private readonly settled: PageMarkdown[] = [];
  private readonly blocks: Block[] = [];
  private previous?: Document;
  /** The Markdown of the settled pages, joined. */
  private written = '';

  constructor(
    private readonly file: string,
    private readonly settle: Settle,
  ) {}

  /** The pages read that the page loop delivered so far, with their reports: hands the pages this settles on. */
  readonly delivered = (pages: PageLines[], reports: PageReport[]): void => {
    const settled = this.add(withFailedPages(pages, reports, 'page'));
    if (settled.length > 0) this.settle.onPages(settled);
  };

  /** The pages delivered so far (in order; failed pages as their marks): the pages this settles, in order. */
  add(pages: PageLines[]): PageMarkdown[] {
    const document = this.layout(pages);
    const fresh: PageMarkdown[] = [];
    const last = pages[pages.length - 1]?.number ?? 0;
    for (const page of pages) {
      const number = page.number ?? 0;
      if (number <= this.lastSettled()) continue;
      if (number > last - LOOKAHEAD || !this.previous) break;
      const blocks = blocksOf(document, number);
      if (JSON.stringify(blocks) !== JSON.stringify(blocksOf(this.previous, number))) break;
      fresh.push(this.settlePage(number, blocks));
    }
    this.previous = document;
    return fresh;
  }

  /**
   * The file's document and every page's stretch, once all its pages are read (`pages`, failed ones
   * marked): the settled pages as they were delivered, then the final layout of the others.
   */
  finish(pages: PageLines[]): {
    document: Document;
    pageMarkdown: PageMarkdown[];
    markdown: string;
    placed: PlacedPage[];
  } {
    const final = laidOut(pages, this.file);
    const document = withPageFurniture(final.document, this.settle.furniture);
    const after = this.lastSettled();
    const rest = document.blocks.filter((_, i) => pagesOfBlocks(document.blocks)[i] > after);
    const numbers = pages.map((page) => page.number ?? 0).filter((number) => number > after);
    // The rest is written after the settled blocks, as the writer would go on from them.
    const whole = { version: 1 as const, blocks: [...this.blocks, ...rest] };
    const stretches = pageStretches(whole, [...this.settled.map((page) => page.page), ...numbers]);
    const tail = stretches.filter((stretch) => stretch.page > after);
    // The settled stretches stand as delivered; the writer's own Markdown of them is the same
    // unless a later block changed how an earlier one is written (a footnote referenced later).
    const markdown = this.written + tail.map((stretch) => stretch.markdown).join('');
    return { document: whole, pageMarkdown: [...this.settled, ...tail], markdown, placed: final.placed };
  }

  private lastSettled(): number {
    return this.settled[this.settled.length - 1]?.page ?? 0;
  }

  private layout(pages: PageLines[]): Document {
    return withPageFurniture(laidOut(pages, this.file).document, this.settle.furniture);
  }

  /** Settles a page: its stretch is what writing its blocks after the settled ones adds. */
  private settlePage(page: number, blocks: Block[]): PageMarkdown {
    this.blocks.push(...blocks);
    const { markdown } = writeMarkdownSpans({ version: 1, blocks: this.blocks });
    // Without the final line end, which only the file's last page carries.
    const body = markdown.endsWith('\n') ? markdown.slice(0, -1) : markdown;
    const stretch = { page, markdown: body.slice(this.written.length), blocks };
    this.written = body;
    this.settled.push(stretch);
    return stretch;
  }
}

function blocksOf(document: Document, page: number): Block[] {
  const pages = pagesOfBlocks(document.blocks);
  return document.blocks.filter((_, i) => pages[i] === page);
}
