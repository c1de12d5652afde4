import type { Block, HeadingBlock } from './document-blocks';
import type { InlineRun } from './markdown-tree';
import { cellPlacements, gridSlice, tableGrid, tableWidth, type CellRange, type Table } from './table-model';
import { displayWidth, isWide } from './text-width';

/*
 * Slides are laid out by estimate, since nothing here can measure rendered text: a line of text is assumed to
 * hold as many characters as fit at an average glyph width of CHAR_WIDTH_EM (wide East Asian characters count
 * double), lines are PowerPoint's single spacing (1.2 × the font size), and a slide takes at most
 * MAX_BODY_LINES lines of body text, which leaves spare room in the body area for estimates that fall short.
 */

/** 16:9 slide, in inches. */
export const SLIDE = { width: 10, height: 5.625 } as const;
/** Where section content goes, in inches: below the title, above the bottom edge. */
export const BODY = { x: 0.5, y: 1.2, w: 9, h: 4.1 } as const;
export const TITLE_BOX = { x: 0.5, y: 0.3, w: 9, h: 0.8 } as const;
export const BODY_FONT_PT = 16;
/** The height of one line of body text, in inches. */
export const BODY_LINE_IN = (BODY_FONT_PT * 1.2) / 72;
/** Body lines (or their height in tables) one slide may hold: 14 lines are 3.73 in of the 4.1 in body. */
export const MAX_BODY_LINES = 14;
/** Average glyph width, as a fraction of the font size, for proportional Latin text (on the generous side). */
const CHAR_WIDTH_EM = 0.55;
const MONO_CHAR_WIDTH_EM = 0.62;
/** Left plus right inset of a text box, in inches. */
const TEXT_INSET_IN = 0.2;
/** Indentation of each bullet level (pptxgenjs' 27 pt), in inches. */
const BULLET_INDENT_IN = 27 / 72;
/** Space after each paragraph, in points, and what it costs in body lines. */
export const PARAGRAPH_SPACE_PT = 4;
const PARAGRAPH_GAP_LINES = PARAGRAPH_SPACE_PT / (BODY_FONT_PT * 1.2);
/** Space between a text box and a table, in body lines. */
const ITEM_GAP_LINES = 0.5;
/** Cell padding of pptxgenjs tables, top plus bottom and left plus right, in inches. */
const CELL_PADDING_V_IN = 0.1;
const CELL_PADDING_H_IN = 0.2;
/** Fewest lines of a paragraph, and body rows of a table, worth starting at the bottom of a slide. */
const MIN_SPLIT_LINES = 2;
const MIN_TABLE_ROWS = 2;

export type ParagraphStyle = 'body' | 'subheading' | 'code' | 'quote';

const FONT_PT: Record<ParagraphStyle, number> = { body: BODY_FONT_PT, subheading: 18, code: 12, quote: BODY_FONT_PT };

/** One paragraph of a slide's text box. It has no line breaks: each source line is its own paragraph. */
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

export interface SlideTableCell {
  text: string;
  header: boolean;
  rowspan: number;
  colspan: number;
}

/** A native table: rows of the cells written (positions covered by a span are left out), sizes in inches. */
export interface SlideTable {
  rows: SlideTableCell[][];
  headerRows: number;
  colW: number[];
  rowH: number[];
  fontSize: number;
}

export type SlideItem =
  { kind: 'text'; paragraphs: SlideParagraph[]; lines: number } | { kind: 'table'; table: SlideTable; lines: number };

export interface PlannedSlide {
  title: string;
  items: SlideItem[];
  /** Body lines used, at most MAX_BODY_LINES. */
  lines: number;
}

export interface DeckPlan {
  title: string;
  /** The document's own top heading when it differs from the title. */
  subtitle: string | null;
  slides: PlannedSlide[];
}

/**
 * Plans a deck: a title slide, then one slide per section, split at the highest heading level used below the
 * document's own title heading (a lone top heading opening the document is taken as its title). Content before
 * the first section heading gets a slide of its own. A section too long for one slide continues on slides
 * titled "… (cont.)": paragraphs are split between lines, tables between rows with their header repeated.
 */
export function planDeck(blocks: Block[], title: string): DeckPlan {
  const { titleHeading, body } = takeTitleHeading(blocks);
  const subtitle = titleHeading && !sameText(titleHeading.text, title) ? titleHeading.text : null;
  const slides = splitSections(body, titleHeading?.text ?? title).flatMap(paginateSection);
  return { title, subtitle, slides };
}

function sameText(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** The first block when it is a heading above every other heading of the document. */
function takeTitleHeading(blocks: Block[]): { titleHeading: HeadingBlock | null; body: Block[] } {
  const [first, ...rest] = blocks;
  if (first?.kind !== 'heading') return { titleHeading: null, body: blocks };
  const others = rest.filter((block): block is HeadingBlock => block.kind === 'heading');
  if (others.some((heading) => heading.depth <= first.depth)) return { titleHeading: null, body: blocks };
  return { titleHeading: first, body: rest };
}

interface Section {
  title: string;
  blocks: Block[];
}

function splitSections(blocks: Block[], leadTitle: string): Section[] {
  const depths = blocks.flatMap((block) => (block.kind === 'heading' ? [block.depth] : []));
  const splitDepth = Math.min(...depths);
  const sections: Section[] = [{ title: leadTitle, blocks: [] }];
  for (const block of blocks) {
    if (block.kind === 'heading' && block.depth === splitDepth) sections.push({ title: block.text, blocks: [] });
    else sections[sections.length - 1].blocks.push(block);
  }
  // The lead section holds what comes before the first heading; without such content it is left out.
  return sections.filter((section, index) => index > 0 || section.blocks.length > 0 || sections.length === 1);
}

function paginateSection(section: Section): PlannedSlide[] {
  const paginator = new Paginator(section.title);
  for (const block of section.blocks) {
    if (block.kind === 'table') {
      if (tableWidth(block.table) > 0) paginator.addTable(prepareTable(block.table));
    } else {
      for (const paragraph of blockParagraphs(block)) paginator.addParagraph(paragraph);
    }
  }
  return paginator.slides;
}

// ---- paragraphs ----------------------------------------------------------------------------

/** The paragraphs a non-table block turns into. */
function blockParagraphs(block: Exclude<Block, { kind: 'table' }>): SlideParagraph[] {
  switch (block.kind) {
    case 'heading':
      return [paragraph(block.text, 'subheading', { bold: true })];
    case 'paragraph':
      return block.text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) =>
          paragraph(linkedText(line, block.runs), block.quote ? 'quote' : 'body', {
            bold: allRuns(block.runs, (run) => run.bold),
            italic: block.quote || allRuns(block.runs, (run) => run.italic),
          }),
        );
    case 'listItem':
      return [
        paragraph(linkedText(block.text.replace(/\s*\n\s*/g, ' '), block.runs), 'body', {
          bullet: block.continuation ? 'none' : block.ordered ? 'number' : 'bullet',
          level: block.level,
          number: block.number,
          bold: allRuns(block.runs, (run) => run.bold),
        }),
      ];
    case 'code':
      return block.text.split('\n').map((line) => paragraph(line, 'code'));
    case 'rule':
      return [];
  }
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

/** Character units (a wide character is two) that fit on a line `widthIn` inches wide. */
export function unitsPerLine(widthIn: number, fontPt: number, charWidthEm = CHAR_WIDTH_EM): number {
  return Math.max(1, Math.floor((widthIn * 72) / (fontPt * charWidthEm)));
}

/** What a paragraph costs in body lines: its lines at its font size, plus the space after it. */
export function paragraphCost(paragraph: Pick<SlideParagraph, 'style' | 'lines'>): number {
  return (paragraph.lines * FONT_PT[paragraph.style]) / BODY_FONT_PT + PARAGRAPH_GAP_LINES;
}

/** The font size, in points, of paragraphs in that style. */
export function fontSizeOf(style: ParagraphStyle): number {
  return FONT_PT[style];
}

/**
 * Greedy word wrap: the offset where each line starts. Lines break between words; a word longer than a line
 * is broken between characters; `\n` forces a new line; a wide (East Asian) character takes two units.
 */
export function wrapLines(text: string, units: number): number[] {
  const starts = [0];
  let used = 0;
  for (const match of text.matchAll(/\n|[^\s\n]+[^\S\n]*|[^\S\n]+/g)) {
    const token = match[0];
    const at = match.index ?? 0;
    if (token === '\n') {
      starts.push(at + 1);
      used = 0;
      continue;
    }
    const width = displayWidth(token.trimEnd());
    if (used > 0 && used + width > units) {
      starts.push(at);
      used = 0;
    }
    if (width <= units) {
      used += displayWidth(token);
      continue;
    }
    for (let i = 0; i < token.length;) {
      const char = String.fromCodePoint(token.codePointAt(i) ?? 32);
      const charWidth = isWide(char) ? 2 : 1;
      if (used > 0 && used + charWidth > units) {
        starts.push(at + i);
        used = 0;
      }
      used += charWidth;
      i += char.length;
    }
  }
  return starts;
}

/**
 * The paragraph cut after `lines` lines: the part that fits and the rest, which continues without its bullet.
 * `starts` is the paragraph's wrap; the rest's wrap is the same lines shifted, so it is passed on, not redone.
 */
function splitParagraph(
  paragraph: SlideParagraph,
  starts: number[],
  lines: number,
): [SlideParagraph, SlideParagraph, number[]] {
  const cut = starts[lines];
  const head: SlideParagraph = { ...paragraph, text: paragraph.text.slice(0, cut).trimEnd(), lines };
  const rest = starts.slice(lines).map((start) => start - cut);
  const tail: SlideParagraph = { ...paragraph, text: paragraph.text.slice(cut), bullet: 'none', lines: rest.length };
  return [head, tail, rest];
}

// ---- tables --------------------------------------------------------------------------------

interface PreparedTable {
  table: Table;
  colW: number[];
  rowH: number[];
  fontSize: number;
}

/** Table font size by column count, so wide tables stay legible but fit. */
function tableFontSize(columns: number): number {
  if (columns <= 3) return 14;
  if (columns <= 6) return 12;
  if (columns <= 9) return 10;
  return 8;
}

/**
 * Column widths proportional to content (within limits), row heights from the wrapped text, and cell text
 * cut (with "…") where a single row would otherwise take more than its share of a slide.
 */
function prepareTable(source: Table, rowsSplit = false): PreparedTable {
  const width = tableWidth(source);
  const fontSize = tableFontSize(width);
  const lineIn = (fontSize * 1.2) / 72;
  const placements = cellPlacements(source);
  const grid = tableGrid(source).map((row) => [...row]);
  const weights = Array.from({ length: width }, (_, c) => {
    const widest = Math.max(
      0,
      ...grid.map((row, r) => (placements[r][c].kind === 'single' ? displayWidth(row[c]) : 0)),
    );
    return Math.min(40, Math.max(4, widest));
  });
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  const colW = weights.map((weight) => (BODY.w * weight) / totalWeight);
  const maxRowIn = (MAX_BODY_LINES * BODY_LINE_IN) / (source.header.length + 2);
  const maxCellLines = Math.max(1, Math.floor((maxRowIn - CELL_PADDING_V_IN) / lineIn));
  if (source.merges.length === 0 && !rowsSplit) {
    // Without merged cells a row too tall for a slide continues in rows below it, so no text is cut.
    // A header too tall to repeat on every slide is read as the table's first rows instead.
    const tallHeader = grid
      .slice(0, source.header.length)
      .some((row) =>
        row.some(
          (text, c) => wrapLines(text, unitsPerLine(colW[c] - CELL_PADDING_H_IN, fontSize)).length > maxCellLines,
        ),
      );
    const headerRows = tallHeader ? 0 : source.header.length;
    const split = splitTallRows(grid, headerRows, colW, fontSize, maxCellLines);
    return prepareTable({ header: split.slice(0, headerRows), rows: split.slice(headerRows), merges: [] }, true);
  }

  const rowH = grid.map(() => CELL_PADDING_V_IN + lineIn);
  const spanNeeds: { range: CellRange; height: number }[] = [];
  grid.forEach((row, r) =>
    row.forEach((text, c) => {
      const placement = placements[r][c];
      if (placement.kind === 'covered') return;
      const range = placement.kind === 'start' ? placement.range : { top: r, left: c, bottom: r, right: c };
      const cellW = colW.slice(range.left, range.right + 1).reduce((sum, w) => sum + w, 0);
      const units = unitsPerLine(cellW - CELL_PADDING_H_IN, fontSize);
      row[c] = truncateToLines(text, units, maxCellLines);
      const height = CELL_PADDING_V_IN + wrapLines(row[c], units).length * lineIn;
      if (range.bottom === r) rowH[r] = Math.max(rowH[r], height);
      else spanNeeds.push({ range, height });
    }),
  );
  for (const { range, height } of spanNeeds) {
    const spanned = rowH.slice(range.top, range.bottom + 1).reduce((sum, h) => sum + h, 0);
    if (height > spanned) rowH[range.bottom] += height - spanned;
  }
  const table: Table = {
    header: grid.slice(0, source.header.length),
    rows: grid.slice(source.header.length),
    merges: source.merges,
  };
  return { table, colW, rowH, fontSize };
}

/**
 * Body rows whose cells wrap to more than `maxLines` lines, split into as many rows as they
 * need: each cell's text continues, `maxLines` lines at a time, in the rows below.
 */
function splitTallRows(grid: string[][], headerRows: number, colW: number[], fontSize: number, maxLines: number) {
  const out: string[][] = grid.slice(0, headerRows);
  for (const row of grid.slice(headerRows)) {
    const chunks = row.map((text, c) => {
      const starts = wrapLines(text, unitsPerLine(colW[c] - CELL_PADDING_H_IN, fontSize));
      const pieces: string[] = [];
      for (let i = 0; i < starts.length; i += maxLines) {
        pieces.push(text.slice(starts[i], starts[i + maxLines] ?? text.length).trim());
      }
      return pieces.length > 0 ? pieces : [text];
    });
    const height = Math.max(...chunks.map((pieces) => pieces.length));
    for (let i = 0; i < height; i++) out.push(chunks.map((pieces) => pieces[i] ?? ''));
  }
  return out;
}

/** The text cut to `maxLines` wrapped lines, ending in "…" when anything was cut. */
export function truncateToLines(text: string, units: number, maxLines: number): string {
  const starts = wrapLines(text, units);
  if (starts.length <= maxLines) return text;
  const kept = text.slice(0, starts[maxLines]).trimEnd();
  return `${kept.slice(0, Math.max(0, kept.length - 1))}…`;
}

/** The header rows plus body rows `from` to `to` (grid indexes) as a slide table. */
function tableSlice(prepared: PreparedTable, from: number, to: number): SlideTable {
  const headerRows = prepared.table.header.length;
  const header = gridSlice(prepared.table, 0, headerRows);
  const body = gridSlice(prepared.table, from, to);
  const grid = [...header.grid, ...body.grid];
  const merges = [
    ...header.merges,
    ...body.merges.map((m) => ({ ...m, top: m.top + headerRows, bottom: m.bottom + headerRows })),
  ];
  const placements = cellPlacements({ header: [], rows: grid, merges });
  const rows = grid.map((row, r) =>
    row.flatMap((text, c): SlideTableCell[] => {
      const placement = placements[r][c];
      if (placement.kind === 'covered') return [];
      const range = placement.kind === 'start' ? placement.range : { top: r, left: c, bottom: r, right: c };
      return [
        {
          text,
          header: r < headerRows,
          rowspan: range.bottom - range.top + 1,
          colspan: range.right - range.left + 1,
        },
      ];
    }),
  );
  const rowH = [...prepared.rowH.slice(0, headerRows), ...prepared.rowH.slice(from, to)];
  return { rows, headerRows, colW: prepared.colW, rowH, fontSize: prepared.fontSize };
}

// ---- pagination ----------------------------------------------------------------------------

/** Fills a section's slides in order, opening continuation slides when the body is full. */
class Paginator {
  readonly slides: PlannedSlide[] = [];
  private current: PlannedSlide;

  constructor(private readonly title: string) {
    this.current = this.openSlide();
  }

  addParagraph(start: SlideParagraph): void {
    let paragraph = start;
    let starts: number[] | null = null;
    for (;;) {
      const available = this.available('text');
      const cost = paragraphCost(paragraph);
      const keepWithNext = paragraph.style === 'subheading' ? MIN_SPLIT_LINES : 0;
      if (cost + keepWithNext <= available || (cost <= available && this.isEmpty())) {
        this.placeText(paragraph);
        return;
      }
      const lineCost = FONT_PT[paragraph.style] / BODY_FONT_PT;
      const fitting = Math.floor((available - PARAGRAPH_GAP_LINES) / lineCost);
      const splitsHere = this.isEmpty() || (fitting >= MIN_SPLIT_LINES && paragraph.style !== 'subheading');
      if (splitsHere && paragraph.lines > fitting) {
        starts ??= wrapLines(paragraph.text, paragraphUnits(paragraph));
        const [head, tail, rest] = splitParagraph(paragraph, starts, Math.max(1, fitting));
        this.placeText(head);
        paragraph = tail;
        starts = rest;
      }
      this.current = this.openSlide();
    }
  }

  addTable(prepared: PreparedTable): void {
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
        this.current = this.openSlide();
        continue;
      }
      if (count === 0 && next < end) {
        usedIn += prepared.rowH[next];
        count = 1;
      }
      this.placeTable(tableSlice(prepared, next, next + count), usedIn / BODY_LINE_IN);
      next += count;
      if (next < end) this.current = this.openSlide();
    } while (next < end);
  }

  private openSlide(): PlannedSlide {
    const slide: PlannedSlide = {
      title: this.slides.length === 0 ? this.title : `${this.title} (cont.)`,
      items: [],
      lines: 0,
    };
    this.slides.push(slide);
    return slide;
  }

  private isEmpty(): boolean {
    return this.current.items.length === 0;
  }

  /** Body lines left for an item of this kind, after the gap it needs from the item above (text follows text without one). */
  private available(kind: SlideItem['kind']): number {
    const last = this.current.items.at(-1);
    const gap = last && (last.kind !== kind || kind === 'table') ? ITEM_GAP_LINES : 0;
    return MAX_BODY_LINES - this.current.lines - gap;
  }

  private placeText(paragraph: SlideParagraph): void {
    const cost = paragraphCost(paragraph);
    const last = this.current.items.at(-1);
    if (last?.kind === 'text') {
      last.paragraphs.push(paragraph);
      last.lines += cost;
    } else {
      this.current.lines += last ? ITEM_GAP_LINES : 0;
      this.current.items.push({ kind: 'text', paragraphs: [paragraph], lines: cost });
    }
    this.current.lines += cost;
  }

  private placeTable(table: SlideTable, lines: number): void {
    this.current.lines += this.current.items.length > 0 ? ITEM_GAP_LINES : 0;
    this.current.items.push({ kind: 'table', table, lines });
    this.current.lines += lines;
  }
}
