import PptxGenJS from 'pptxgenjs';
import { documentBlocks } from './document-blocks';
import { parseMarkdown, xmlSafe } from './markdown-tree';
import {
  BODY,
  BODY_FONT_PT,
  BODY_LINE_IN,
  PARAGRAPH_SPACE_PT,
  SLIDE,
  TITLE_BOX,
  fontSizeOf,
  planDeck,
  unitsPerLine,
  wrapLines,
  truncateToLines,
  type DeckPlan,
  type PlannedSlide,
  type SlideParagraph,
  type SlideTable,
} from './slide-plan';

export interface PptxOptions {
  title: string;
}

const MONOSPACE = 'Consolas';
const HEADER_FILL = 'D9E2F3';
const BORDER_COLOR = '8EA9DB';
const TITLE_COLOR = '1F3864';
/** Space between stacked items, in inches; the plan reserves the same. */
const ITEM_GAP_IN = 0.5 * BODY_LINE_IN;
/** Top plus bottom inset of a text box, in inches. */
const TEXT_BOX_INSET_IN = 0.1;

/**
 * A PowerPoint deck: a title slide, then a slide per top-level section with continuation slides where a
 * section is too long (see `planDeck`), bullets and numbering as real list levels and tables as native
 * tables with a shaded bold header row. Each paragraph is one run, so inline formatting is kept only where
 * it covers the whole paragraph and link addresses are written after the linked words.
 *
 * pptxgenjs loads Node built-ins with a dynamic `import()` when it writes; that works in Node itself but
 * not inside Jest's module sandbox, which is why the specs render decks in a child process.
 */
export async function renderPptx(markdown: string, options: PptxOptions): Promise<Buffer> {
  const title = xmlSafe(options.title);
  const plan = planDeck(documentBlocks(parseMarkdown(markdown)), title);
  const deck = new PptxGenJS();
  deck.layout = 'LAYOUT_16x9';
  deck.title = title;
  deck.author = 'docconv';
  addTitleSlide(deck, plan);
  for (const slide of plan.slides) addContentSlide(deck, slide);
  const data = await deck.write({ outputType: 'nodebuffer' });
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  throw new Error('pptxgenjs did not return a buffer');
}

function addTitleSlide(deck: PptxGenJS, plan: DeckPlan): void {
  const slide = deck.addSlide();
  const fontSize = fittingFontSize(plan.title, SLIDE.width - 1, [40, 32, 28, 24], 2);
  slide.addText(truncateToLines(plan.title, unitsPerLine(SLIDE.width - 1.2, fontSize), 2), {
    x: 0.5,
    y: 1.5,
    w: SLIDE.width - 1,
    h: 1.6,
    fontSize,
    bold: true,
    color: TITLE_COLOR,
    align: 'center',
    valign: 'bottom',
    lang: languageOf(plan.title),
  });
  if (plan.subtitle) {
    slide.addText(truncateToLines(plan.subtitle, unitsPerLine(SLIDE.width - 1.2, 20), 2), {
      x: 0.5,
      y: 3.3,
      w: SLIDE.width - 1,
      h: 0.9,
      fontSize: 20,
      color: '595959',
      align: 'center',
      valign: 'top',
      lang: languageOf(plan.subtitle),
    });
  }
}

function addContentSlide(deck: PptxGenJS, planned: PlannedSlide): void {
  const slide = deck.addSlide();
  const titleSize = fittingFontSize(planned.title, TITLE_BOX.w, [28, 24, 20, 16], 2);
  slide.addText(truncateToLines(planned.title, unitsPerLine(TITLE_BOX.w - 0.2, titleSize), 2), {
    ...TITLE_BOX,
    fontSize: titleSize,
    bold: true,
    color: TITLE_COLOR,
    valign: 'bottom',
    lang: languageOf(planned.title),
  });
  let y: number = BODY.y;
  planned.items.forEach((item, index) => {
    if (index > 0) y += ITEM_GAP_IN;
    const height = item.lines * BODY_LINE_IN;
    if (item.kind === 'text') addTextBox(slide, item.paragraphs, y, height + TEXT_BOX_INSET_IN);
    else addTable(slide, item.table, y);
    y += height;
  });
}

/** The largest of `sizes` at which the text takes at most `maxLines` lines across `widthIn`. */
function fittingFontSize(text: string, widthIn: number, sizes: number[], maxLines: number): number {
  const fits = sizes.find((size) => wrapLines(text, unitsPerLine(widthIn - 0.2, size)).length <= maxLines);
  return fits ?? sizes[sizes.length - 1];
}

function addTextBox(slide: PptxGenJS.Slide, paragraphs: SlideParagraph[], y: number, h: number): void {
  slide.addText(paragraphs.map(textProps), {
    x: BODY.x,
    y,
    w: BODY.w,
    h,
    fontSize: BODY_FONT_PT,
    valign: 'top',
  });
}

function textProps(paragraph: SlideParagraph): PptxGenJS.TextProps {
  return {
    text: paragraph.text,
    options: {
      breakLine: true,
      fontSize: fontSizeOf(paragraph.style),
      fontFace: paragraph.style === 'code' ? MONOSPACE : undefined,
      bold: paragraph.bold,
      italic: paragraph.italic,
      bullet: bulletOf(paragraph),
      indentLevel: paragraph.level,
      paraSpaceAfter: PARAGRAPH_SPACE_PT,
      lang: languageOf(paragraph.text),
    },
  };
}

function bulletOf(paragraph: SlideParagraph): PptxGenJS.TextPropsOptions['bullet'] {
  switch (paragraph.bullet) {
    case 'bullet':
      return true;
    case 'number':
      return { type: 'number', numberStartAt: paragraph.number };
    case 'none':
      return false;
  }
}

function addTable(slide: PptxGenJS.Slide, table: SlideTable, y: number): void {
  const rows: PptxGenJS.TableRow[] = table.rows.map((row) =>
    row.map((cell) => ({
      text: cell.text,
      options: {
        bold: cell.header,
        fill: cell.header ? { color: HEADER_FILL } : undefined,
        rowspan: cell.rowspan > 1 ? cell.rowspan : undefined,
        colspan: cell.colspan > 1 ? cell.colspan : undefined,
        valign: 'top',
        lang: languageOf(cell.text),
      },
    })),
  );
  slide.addTable(rows, {
    x: BODY.x,
    y,
    w: table.colW.reduce((sum, w) => sum + w, 0),
    colW: table.colW,
    rowH: table.rowH,
    fontSize: table.fontSize,
    border: { type: 'solid', pt: 0.75, color: BORDER_COLOR },
    autoPage: false,
  });
}

/** Korean text is tagged as such so PowerPoint picks a Korean font for it. */
function languageOf(text: string): string | undefined {
  return /[\uAC00-\uD7A3\u1100-\u11FF\u3130-\u318F]/.test(text) ? 'ko-KR' : undefined;
}
