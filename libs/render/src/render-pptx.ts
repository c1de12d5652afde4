import type { Document } from '@docconv/model';
import PptxGenJS from 'pptxgenjs';
import { documentBlocks, type Block } from './document-blocks';
import { runLines } from './markdown-tree';
import { withoutDroppedCharacters } from '@docconv/characters';
import { pictureOf, type Picture, type RenderImages } from './render-images';
import { BODY, BODY_FONT_PT, BODY_LINE_IN, PARAGRAPH_SPACE_PT, SLIDE, TITLE_BOX } from './slide-layout';
import { fontSizeOf, planDeck, type PlannedSlide, type SlideParagraph, type SlidePicture } from './slide-plan';
import type { SlideTable, SlideTableCell } from './slide-table';
import { truncateToLines, unitsPerLine, wrapLines } from './slide-text';

export interface PptxOptions {
  /** The source file's name: the deck's title when the Markdown has no `#` heading. */
  title: string;
  /** The pictures the Markdown links, by link target; a picture without bytes is written as its alt text. */
  images?: RenderImages;
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
 * A PowerPoint deck: a title slide with the document's title, then content slides laid out by `planDeck`
 * (sections, continuation slides titled with a counter, breaks only between paragraphs or sentences),
 * bullets and numbering as real list levels, tables as native tables with a shaded bold header row repeated
 * on each slide (merged cells spanning, each cell's runs keeping their formatting), pictures fitted with their
 * proportions, and text that did not fit in the speaker notes. Each paragraph outside tables is one run, so
 * inline formatting there is kept only where it covers the whole paragraph and link addresses are written
 * after the linked words.
 *
 * pptxgenjs loads Node built-ins with a dynamic `import()` when it writes; that works in Node itself but
 * not inside Jest's module sandbox, which is why the specs render decks in a child process.
 */
export async function renderPptx(document: Document, options: PptxOptions): Promise<Buffer> {
  const blocks = documentBlocks(document);
  const pictures = await loadPictures(blocks, options.images);
  const plan = planDeck(blocks, withoutDroppedCharacters(options.title), pictures);
  const deck = new PptxGenJS();
  deck.layout = 'LAYOUT_16x9';
  deck.title = plan.title;
  deck.author = 'docconv';
  addTitleSlide(deck, plan.title);
  for (const slide of plan.slides) addContentSlide(deck, slide, pictures);
  const data = await deck.write({ outputType: 'nodebuffer' });
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  throw new Error('pptxgenjs did not return a buffer');
}

/** The pictures the document's paragraphs link that the result holds, by link target. */
async function loadPictures(blocks: Block[], images: RenderImages | undefined): Promise<Map<string, Picture>> {
  const sources = new Set(
    blocks.flatMap((block) => (block.kind === 'paragraph' ? block.runs.flatMap((run) => run.image?.src ?? []) : [])),
  );
  const pictures = new Map<string, Picture>();
  for (const src of sources) {
    const picture = await pictureOf(images, src);
    if (picture) pictures.set(src, picture);
  }
  return pictures;
}

function addTitleSlide(deck: PptxGenJS, title: string): void {
  const slide = deck.addSlide();
  const fontSize = fittingFontSize(title, SLIDE.width - 1, [40, 32, 28, 24], 3);
  slide.addText(truncateToLines(title, unitsPerLine(SLIDE.width - 1.2, fontSize), 3), {
    x: 0.5,
    y: 1.2,
    w: SLIDE.width - 1,
    h: 2.4,
    fontSize,
    bold: true,
    color: TITLE_COLOR,
    align: 'center',
    valign: 'middle',
    lang: languageOf(title),
  });
}

function addContentSlide(deck: PptxGenJS, planned: PlannedSlide, pictures: Map<string, Picture>): void {
  const slide = deck.addSlide();
  const titleSize = fittingFontSize(planned.title, TITLE_BOX.w, [28, 24, 20, 16], 2);
  const title = truncateToLines(planned.title, unitsPerLine(TITLE_BOX.w - 0.2, titleSize), 2);
  slide.addText(title, {
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
    switch (item.kind) {
      case 'text':
        addTextBox(slide, item.paragraphs, y, height + TEXT_BOX_INSET_IN);
        break;
      case 'table':
        addTable(slide, item.table, y);
        break;
      case 'picture': {
        const picture = pictures.get(item.picture.src);
        if (picture) addPicture(slide, item.picture, picture, y);
        break;
      }
    }
    y += height;
  });
  const notes = title === planned.title ? planned.notes : [planned.title, ...planned.notes];
  if (notes.length > 0) slide.addNotes(notes.join('\n\n'));
}

/** The largest of `sizes` at which the text takes at most `maxLines` lines across `widthIn`. */
function fittingFontSize(text: string, widthIn: number, sizes: number[], maxLines: number): number {
  const fits = sizes.find((size) => wrapLines(text, unitsPerLine(widthIn - 0.2, size), 0, maxLines).length <= maxLines);
  return fits ?? sizes[sizes.length - 1];
}

function addTextBox(slide: PptxGenJS.Slide, paragraphs: SlideParagraph[], y: number, h: number): void {
  slide.addText(paragraphs.flatMap(textProps), {
    x: BODY.x,
    y,
    w: BODY.w,
    h,
    fontSize: BODY_FONT_PT,
    valign: 'top',
  });
}

/** A paragraph's lines as PowerPoint paragraphs: the bullet on the first, the space after on the last. */
function textProps(paragraph: SlideParagraph): PptxGenJS.TextProps[] {
  const lines = paragraph.text.split('\n');
  return lines.map((line, index) => ({
    text: line,
    options: {
      breakLine: true,
      fontSize: fontSizeOf(paragraph.style),
      fontFace: paragraph.style === 'code' ? MONOSPACE : undefined,
      bold: paragraph.bold,
      italic: paragraph.italic,
      bullet: index === 0 ? bulletOf(paragraph) : false,
      indentLevel: paragraph.level,
      paraSpaceAfter: index === lines.length - 1 ? PARAGRAPH_SPACE_PT : undefined,
      lang: languageOf(line),
    },
  }));
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
      text: cellTextRuns(cell),
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

/** A cell's lines as pptxgenjs text runs: bold, italic, strike and code as the document formats them. */
function cellTextRuns(cell: SlideTableCell): PptxGenJS.TextProps[] {
  const lines = runLines(cell.runs);
  return lines.flatMap((line, index) =>
    (line.length > 0 ? line : [{ text: '', bold: false, italic: false, strike: false, code: false, link: null }]).map(
      (run, at): PptxGenJS.TextProps => ({
        text: run.text,
        options: {
          bold: cell.header || run.bold || undefined,
          italic: run.italic || undefined,
          strike: run.strike ? 'sngStrike' : undefined,
          fontFace: run.code ? MONOSPACE : undefined,
          breakLine: at === line.length - 1 && index < lines.length - 1 ? true : undefined,
        },
      }),
    ),
  );
}

/** A picture centred across the body at its planned size. */
function addPicture(slide: PptxGenJS.Slide, planned: SlidePicture, picture: Picture, y: number): void {
  const mime = picture.type === 'jpg' ? 'image/jpeg' : 'image/png';
  slide.addImage({
    data: `${mime};base64,${picture.bytes.toString('base64')}`,
    x: BODY.x + (BODY.w - planned.w) / 2,
    y,
    w: planned.w,
    h: planned.h,
    altText: planned.alt,
  });
}

/** Korean text is tagged as such so PowerPoint picks a Korean font for it. */
function languageOf(text: string): string | undefined {
  return /[\uAC00-\uD7A3\u1100-\u11FF\u3130-\u318F]/.test(text) ? 'ko-KR' : undefined;
}
