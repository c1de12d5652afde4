import type { Block } from './document-blocks';
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
import { prepareTable, type PreparedTable } from './slide-table';
import { CHAR_WIDTH_EM, MONO_CHAR_WIDTH_EM, unitsPerLine, wrapLines } from './slide-text';
import { tableGrid, tableWidth } from './table-model';

/**
 * What each block of a document puts on slides (units: a paragraph, a prepared table, a picture)
 * and what a paragraph costs in body lines at its style's font size: the measures the paginator
 * fills slides with.
 */

/** Left plus right inset of a text box, in inches. */
const TEXT_INSET_IN = 0.2;
/** Indentation of each bullet level (pptxgenjs' 27 pt), in inches. */
const BULLET_INDENT_IN = 27 / 72;
/** Fewest lines of a long paragraph, and body rows of a table, worth starting at the bottom of a slide. */
export const MIN_SPLIT_LINES = 2;
export const MIN_TABLE_ROWS = 2;
/** Smallest height, in inches, a picture is shrunk to so that it fits below other content. */
export const MIN_PICTURE_IN = 1.5;

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

/** A picture's size in pixels. */
export interface PictureSize {
  width: number;
  height: number;
}

/** A picture before placement: its natural size in inches. */
export interface PictureUnit {
  src: string;
  alt: string;
  width: number;
  height: number;
}

export type Unit =
  | { kind: 'text'; paragraph: SlideParagraph }
  | { kind: 'table'; table: PreparedTable }
  | { kind: 'picture'; picture: PictureUnit };

export function blockUnits(block: Block, pictures: ReadonlyMap<string, PictureSize>): Unit[] {
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

export function paragraph(
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
export function lineCost(style: ParagraphStyle): number {
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
export function leadCost(unit: Unit | undefined): number {
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
