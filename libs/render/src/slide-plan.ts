import type { Block, HeadingBlock } from './document-blocks';
import type { InlineRun } from './markdown-tree';
import {
  BODY,
  BODY_FONT_PT,
  BODY_LINE_IN,
  ITEM_GAP_LINES,
  MAX_BODY_LINES,
  PARAGRAPH_GAP_LINES,
  PICTURE_DPI,
} from './slide-layout';
import { prepareTable, tableSlice, type PreparedTable, type SlideTable } from './slide-table';
import {
  CHAR_WIDTH_EM,
  MONO_CHAR_WIDTH_EM,
  lineStarts,
  sentenceStarts,
  truncateToLines,
  unitsPerLine,
  wrapLines,
} from './slide-text';
import { tableGrid, tableWidth } from './table-model';

/** Left plus right inset of a text box, in inches. */
const TEXT_INSET_IN = 0.2;
/** Indentation of each bullet level (pptxgenjs' 27 pt), in inches. */
const BULLET_INDENT_IN = 27 / 72;
/** Fewest lines of a long paragraph, and body rows of a table, worth starting at the bottom of a slide. */
const MIN_SPLIT_LINES = 2;
const MIN_TABLE_ROWS = 2;
/** Smallest height, in inches, a picture is shrunk to so that it fits below other content. */
const MIN_PICTURE_IN = 1.5;
/** A section starts on the slide before it (as a subheading) only while that slide is less than this full. */
const JOIN_BELOW_LINES = MAX_BODY_LINES / 2;

export type ParagraphStyle = 'body' | 'subheading' | 'code' | 'quote';

const FONT_PT: Record<ParagraphStyle, number> = { body: BODY_FONT_PT, subheading: 16, code: 11, quote: BODY_FONT_PT };

/** One paragraph of a slide's text box; its `\n` are line breaks within it (lines of code, a poem's lines). */
export interface SlideParagraph {
  text: string;
  style: ParagraphStyle;
  bold: boolean;
  italic: boolean;
  bullet: 'none' | 'bullet' | 'number';
  /** List nesting depth. */
  level: number;
  /** The number shown by a numbered bullet. */
  number: number;
  /** Estimated lines once wrapped. */
  lines: number;
}

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

/** A picture's size in pixels. */
export interface PictureSize {
  width: number;
  height: number;
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

// ---- units: what a block puts on slides ---------------------------------------------------------

/** A picture before placement: its natural size in inches. */
interface PictureUnit {
  src: string;
  alt: string;
  width: number;
  height: number;
}

type Unit =
  | { kind: 'text'; paragraph: SlideParagraph }
  | { kind: 'table'; table: PreparedTable }
  | { kind: 'picture'; picture: PictureUnit };

function blockUnits(block: Block, pictures: ReadonlyMap<string, PictureSize>): Unit[] {
  switch (block.kind) {
    case 'heading':
      return [textUnit(paragraph(block.text, 'subheading', { bold: true }))];
    case 'paragraph':
      return block.runs.some((run) => run.image)
        ? pictureUnits(block.runs, pictures)
        : [textUnit(proseParagraph(block.text, block.runs, block.quote))];
    case 'listItem':
      return [
        textUnit(
          paragraph(linkedText(block.text.replace(/\s*\n\s*/g, ' '), block.runs), 'body', {
            bullet: block.ordered ? 'number' : 'bullet',
            level: block.level,
            number: block.number,
            bold: allRuns(block.runs, (run) => run.bold),
          }),
        ),
      ];
    case 'code':
      return [textUnit(paragraph(block.text, 'code'))];
    case 'table':
      return tableWidth(block.table) > 0 && tableGrid(block.table).length > 0
        ? [{ kind: 'table', table: prepareTable(block.table) }]
        : [];
    case 'rule':
      return [];
  }
}

function textUnit(paragraph: SlideParagraph): Unit {
  return { kind: 'text', paragraph };
}

function proseParagraph(text: string, runs: InlineRun[], quote: boolean): SlideParagraph {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return paragraph(linkedText(lines.join('\n'), runs), quote ? 'quote' : 'body', {
    bold: allRuns(runs, (run) => run.bold),
    italic: quote || allRuns(runs, (run) => run.italic),
  });
}

/** A paragraph holding pictures: its words (if any) first, then each picture, or its alt text when it has no size. */
function pictureUnits(runs: InlineRun[], pictures: ReadonlyMap<string, PictureSize>): Unit[] {
  const words = runs.filter((run) => !run.image);
  const text = words
    .map((run) => run.text)
    .join('')
    .replace(/[^\S\n]{2,}/g, ' ')
    .trim();
  const units: Unit[] = text ? [textUnit(proseParagraph(text, words, false))] : [];
  for (const run of runs) {
    if (!run.image) continue;
    const size = pictures.get(run.image.src);
    if (size) {
      const picture = { ...run.image, width: size.width / PICTURE_DPI, height: size.height / PICTURE_DPI };
      units.push({ kind: 'picture', picture });
    } else if (run.image.alt.trim()) {
      units.push(textUnit(paragraph(run.image.alt.trim(), 'body', { italic: true })));
    }
  }
  return units;
}

/** The text with each link's address added after its words, since slides keep one run per paragraph. */
function linkedText(text: string, runs: InlineRun[]): string {
  let withLinks = text;
  for (const run of runs) {
    if (run.link && run.link !== run.text.trim() && !run.link.startsWith('#'))
      withLinks = withLinks.replace(run.text, () => `${run.text} (${run.link})`);
  }
  return withLinks;
}

function allRuns(runs: InlineRun[], test: (run: InlineRun) => boolean): boolean {
  return runs.length > 0 && runs.every(test);
}

function paragraph(
  text: string,
  style: ParagraphStyle,
  options: Partial<Pick<SlideParagraph, 'bold' | 'italic' | 'bullet' | 'level' | 'number'>> = {},
): SlideParagraph {
  const base: SlideParagraph = {
    text,
    style,
    bold: options.bold ?? false,
    italic: options.italic ?? false,
    bullet: options.bullet ?? 'none',
    level: options.level ?? 0,
    number: options.number ?? 1,
    lines: 0,
  };
  return { ...base, lines: wrapLines(text, paragraphUnits(base)).length };
}

/** Character units one line of the paragraph holds. */
export function paragraphUnits(paragraph: Pick<SlideParagraph, 'style' | 'bullet' | 'level'>): number {
  const indent = paragraph.bullet === 'none' ? 0 : BULLET_INDENT_IN * (paragraph.level + 1);
  const charWidth = paragraph.style === 'code' ? MONO_CHAR_WIDTH_EM : CHAR_WIDTH_EM;
  return unitsPerLine(BODY.w - TEXT_INSET_IN - indent, FONT_PT[paragraph.style], charWidth);
}

/** What one line of a paragraph in this style costs in body lines. */
function lineCost(style: ParagraphStyle): number {
  return FONT_PT[style] / BODY_FONT_PT;
}

/** What a paragraph costs in body lines: its lines at its font size, plus the space after it. */
export function paragraphCost(paragraph: Pick<SlideParagraph, 'style' | 'lines'>): number {
  return paragraph.lines * lineCost(paragraph.style) + PARAGRAPH_GAP_LINES;
}

/** The font size, in points, of paragraphs in that style. */
export function fontSizeOf(style: ParagraphStyle): number {
  return FONT_PT[style];
}

/** Body lines the first part of a unit needs, for keeping a heading on the same slide as what it introduces. */
function leadCost(unit: Unit | undefined): number {
  switch (unit?.kind) {
    case undefined:
      return 0;
    case 'text': {
      const cost = paragraphCost(unit.paragraph);
      return cost <= MAX_BODY_LINES ? cost : MIN_SPLIT_LINES * lineCost(unit.paragraph.style) + PARAGRAPH_GAP_LINES;
    }
    case 'table': {
      const rows = unit.table.table.header.length + Math.min(MIN_TABLE_ROWS, unit.table.table.rows.length);
      return ITEM_GAP_LINES + unit.table.rowH.slice(0, rows).reduce((sum, h) => sum + h, 0) / BODY_LINE_IN;
    }
    case 'picture':
      return ITEM_GAP_LINES + Math.min(unit.picture.height, MIN_PICTURE_IN) / BODY_LINE_IN;
  }
}

// ---- pagination ---------------------------------------------------------------------------------

interface DraftSlide {
  /** The section running at the top of the slide. */
  section: number;
  items: SlideItem[];
  lines: number;
  notes: string[];
}

/** Fills slides in document order, opening a new slide when a section starts or the body is full. */
class Paginator {
  private readonly slides: DraftSlide[] = [];
  private readonly headings: (string | null)[] = [];
  /** The section being laid out, which titles the slides it continues on. */
  private section = -1;
  /** Sections that started below another section on a slide rather than at the top of their own. */
  private readonly startedBelow = new Set<number>();

  addSection(heading: string | null, units: Unit[]): void {
    if (heading === null && units.length === 0) return;
    const section = this.headings.push(heading) - 1;
    this.section = section;
    const title = heading === null ? null : paragraph(heading, 'subheading', { bold: true });
    const lead = (title ? paragraphCost(title) : 0) + leadCost(units[0]);
    const current = this.slides.at(-1);
    if (title && current && current.lines < JOIN_BELOW_LINES && lead <= this.available('text')) {
      this.startedBelow.add(section);
      this.placeText(title);
    } else {
      this.openSlide(section);
    }
    units.forEach((unit, i) => this.addUnit(unit, units[i + 1]));
  }

  /**
   * The slides with content, titled. A slide is titled with the heading of the section running at its top.
   * When a section takes several slides, each carries a counter ("Preface (2/3)"). Content before the first
   * heading — all of a document without headings — is titled the same way with the document title
   * ("noori (2/5)"): unlike a title made from the slide's first sentence, it never repeats the text below it
   * or cuts a sentence short, and the counter tells where the slide stands.
   */
  finish(documentTitle: string): PlannedSlide[] {
    const kept = this.slides.filter(hasContent);
    const totals = new Map<number, number>();
    for (const slide of kept) totals.set(slide.section, (totals.get(slide.section) ?? 0) + 1);
    const seen = new Map<number, number>();
    return kept.map((slide) => {
      const before = this.startedBelow.has(slide.section) ? 1 : 0;
      const position = (seen.get(slide.section) ?? 0) + 1;
      seen.set(slide.section, position);
      const total = (totals.get(slide.section) ?? 0) + before;
      const base = this.headings[slide.section] ?? documentTitle;
      const title = total > 1 ? `${base} (${position + before}/${total})` : base;
      return { title, items: slide.items, lines: slide.lines, notes: slide.notes };
    });
  }

  private addUnit(unit: Unit, next: Unit | undefined): void {
    switch (unit.kind) {
      case 'text':
        this.addParagraph(unit.paragraph, unit.paragraph.style === 'subheading' ? leadCost(next) : 0);
        return;
      case 'table':
        this.addTable(unit.table);
        return;
      case 'picture':
        this.addPicture(unit.picture);
        return;
    }
  }

  /** A paragraph, whole on this slide or the next; `keepWithNext` lines must fit below it too (a heading's). */
  private addParagraph(paragraph: SlideParagraph, keepWithNext: number): void {
    const cost = paragraphCost(paragraph);
    if (cost + keepWithNext <= this.available('text')) return this.placeText(paragraph);
    if (cost > MAX_BODY_LINES) return this.addLongParagraph(paragraph);
    if (!this.isEmpty()) this.continueSlide();
    this.placeText(paragraph);
  }

  /**
   * A paragraph longer than a slide, over as many slides as it needs: each part ends at a sentence end (or,
   * on an otherwise empty slide, a line break). A sentence longer than a whole slide is shortened with "…"
   * and kept in full in the speaker notes. Only each slide's share of the text is wrapped, so the work grows
   * with the text, not with its square.
   */
  private addLongParagraph(paragraph: SlideParagraph): void {
    const { text } = paragraph;
    const units = paragraphUnits(paragraph);
    const lineStartsAt = lineStarts(text);
    const breaks = paragraph.style === 'code' ? lineStartsAt : sentenceStarts(text);
    let from = 0;
    while (from < text.length) {
      const fitting = Math.floor((this.available('text') - PARAGRAPH_GAP_LINES) / lineCost(paragraph.style));
      if (fitting < MIN_SPLIT_LINES && !this.isEmpty()) {
        this.continueSlide();
        continue;
      }
      const piece = { ...paragraph, bullet: from === 0 ? paragraph.bullet : ('none' as const) };
      const starts = wrapLines(text, units, from, fitting);
      if (starts.length <= fitting) return this.placeText({ ...piece, text: text.slice(from), lines: starts.length });
      const limit = starts[fitting];
      const cut = lastWithin(breaks, from, limit) ?? (this.isEmpty() ? lastWithin(lineStartsAt, from, limit) : null);
      if (cut !== null) {
        const lines = starts.filter((start) => start < cut).length;
        this.placeText({ ...piece, text: text.slice(from, cut).trimEnd(), lines });
        from = cut;
      } else if (this.isEmpty()) {
        const end = firstAfter(breaks, limit) ?? text.length;
        const sentence = text.slice(from, end).trimEnd();
        this.placeText({ ...piece, text: truncateToLines(sentence, units, fitting), lines: fitting });
        this.current().notes.push(sentence);
        from = end;
      }
      if (from < text.length) this.continueSlide();
    }
  }

  /**
   * A table, split between rows over as many slides as it needs with its header rows on each. A slide break
   * never leaves fewer than MIN_TABLE_ROWS body rows on either side of it when the table has more.
   */
  private addTable(prepared: PreparedTable): void {
    const headerRows = prepared.table.header.length;
    const end = tableGrid(prepared.table).length;
    const headerIn = prepared.rowH.slice(0, headerRows).reduce((sum, h) => sum + h, 0);
    let next = headerRows;
    do {
      const availableIn = this.available('table') * BODY_LINE_IN;
      let usedIn = headerIn;
      let count = 0;
      while (next + count < end && usedIn + prepared.rowH[next + count] <= availableIn) {
        usedIn += prepared.rowH[next + count];
        count++;
      }
      const tooFew = count < Math.min(MIN_TABLE_ROWS, end - next) || usedIn > availableIn;
      if (tooFew && !this.isEmpty()) {
        this.continueSlide();
        continue;
      }
      const left = end - next - count;
      if (left > 0 && left < MIN_TABLE_ROWS && count - (MIN_TABLE_ROWS - left) >= MIN_TABLE_ROWS) {
        for (let i = 0; i < MIN_TABLE_ROWS - left; i++) usedIn -= prepared.rowH[next + --count];
      }
      if (count === 0 && next < end) {
        usedIn += prepared.rowH[next];
        count = 1;
      }
      const slice = tableSlice(prepared, next, next + count);
      this.placeItem({ kind: 'table', table: slice.table, lines: usedIn / BODY_LINE_IN });
      this.current().notes.push(...slice.notes);
      next += count;
      if (next < end) this.continueSlide();
    } while (next < end);
  }

  /** A picture at its natural size or smaller, keeping its proportions: below what is on the slide if it fits there at a useful size, else on the next slide. */
  private addPicture(picture: PictureUnit): void {
    let size = fitted(picture, this.available('picture') * BODY_LINE_IN);
    if (size.h < Math.min(picture.height, MIN_PICTURE_IN) - 1e-6 && !this.isEmpty()) {
      this.continueSlide();
      size = fitted(picture, this.available('picture') * BODY_LINE_IN);
    }
    this.placeItem({
      kind: 'picture',
      picture: { src: picture.src, alt: picture.alt, ...size },
      lines: size.h / BODY_LINE_IN,
    });
  }

  private openSlide(section: number): void {
    this.slides.push({ section, items: [], lines: 0, notes: [] });
  }

  /** A new slide for the section being laid out. */
  private continueSlide(): void {
    this.openSlide(this.section);
  }

  private current(): DraftSlide {
    const slide = this.slides.at(-1);
    if (!slide) throw new Error('no slide is open');
    return slide;
  }

  private isEmpty(): boolean {
    return this.current().items.length === 0;
  }

  /** Body lines left for an item of this kind, after the gap it needs from the item above (text follows text without one). */
  private available(kind: SlideItem['kind']): number {
    const last = this.current().items.at(-1);
    const gap = last && (last.kind !== kind || kind !== 'text') ? ITEM_GAP_LINES : 0;
    return MAX_BODY_LINES - this.current().lines - gap;
  }

  private placeText(paragraph: SlideParagraph): void {
    const cost = paragraphCost(paragraph);
    const slide = this.current();
    const last = slide.items.at(-1);
    if (last?.kind === 'text') {
      last.paragraphs.push(paragraph);
      last.lines += cost;
      slide.lines += cost;
    } else {
      this.placeItem({ kind: 'text', paragraphs: [paragraph], lines: cost });
    }
  }

  private placeItem(item: SlideItem): void {
    const slide = this.current();
    slide.lines += slide.items.length > 0 ? ITEM_GAP_LINES : 0;
    slide.items.push(item);
    slide.lines += item.lines;
  }
}

/** Whether a slide shows anything: a table, a picture or some text. */
function hasContent(slide: DraftSlide): boolean {
  return slide.items.some((item) => item.kind !== 'text' || item.paragraphs.some((p) => p.text.trim() !== ''));
}

/** The picture's size in inches within the body width and `maxHeightIn`, proportions kept, never enlarged. */
function fitted(picture: PictureUnit, maxHeightIn: number): { w: number; h: number } {
  const scale = Math.min(BODY.w / picture.width, Math.max(0, maxHeightIn) / picture.height, 1);
  return { w: picture.width * scale, h: picture.height * scale };
}

/** The last of the sorted offsets after `from` and at most `limit`, or null. */
function lastWithin(sorted: number[], from: number, limit: number): number | null {
  const found = sorted[countUpTo(sorted, limit) - 1];
  return found !== undefined && found > from ? found : null;
}

/** The first of the sorted offsets after `limit`, or null. */
function firstAfter(sorted: number[], limit: number): number | null {
  return sorted[countUpTo(sorted, limit)] ?? null;
}

/** How many of the sorted offsets are at most `limit` (a binary search). */
function countUpTo(sorted: number[], limit: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle] <= limit) low = middle + 1;
    else high = middle;
  }
  return low;
}
