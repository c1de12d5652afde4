import { BODY, BODY_LINE_IN, ITEM_GAP_LINES, MAX_BODY_LINES, PARAGRAPH_GAP_LINES } from './slide-layout';
import { tableSlice, type PreparedTable } from './slide-table';
import { lineStarts, sentenceStarts, truncateToLines, wrapLines } from './slide-text';
import { tableGrid } from './table-model';

import type { PlannedSlide, SlideItem } from './slide-plan';
import {
  leadCost,
  lineCost,
  MIN_PICTURE_IN,
  MIN_SPLIT_LINES,
  MIN_TABLE_ROWS,
  paragraph,
  paragraphCost,
  paragraphUnits,
  type PictureUnit,
  type SlideParagraph,
  type Unit,
} from './slide-units';

/** A section starts on the slide before it (as a subheading) only while that slide is less than this full. */
const JOIN_BELOW_LINES = MAX_BODY_LINES / 2;

interface DraftSlide {
  /** The section running at the top of the slide. */
  section: number;
  items: SlideItem[];
  lines: number;
  notes: string[];
}

/** Fills slides in document order, opening a new slide when a section starts or the body is full. */
export class Paginator {
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
