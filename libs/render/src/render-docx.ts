import { withoutDroppedCharacters } from '@docconv/characters';
import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  FootnoteReferenceRun,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  ShadingType,
  Table as DocxTable,
  TextRun,
  type ILevelsOptions,
  type INumberingOptions,
  type ParagraphChild,
} from 'docx';
import { DocxFootnotes, type NotePiece } from './docx-footnotes';
import { loadPictures, pictureRun } from './docx-pictures';
import { CODE_SHADING, INDENT_TWIPS, MONOSPACE_FONT, STYLE, documentStyles } from './docx-styles';
import { docxTable } from './docx-table';
import type { Document as DocumentModel } from '@docconv/model';
import { documentBlocks, type Block, type HeadingBlock, type ListItemBlock } from './document-blocks';
import { type InlineRun } from './markdown-tree';
import type { Picture, RenderImages } from './render-images';
import { formattedRuns, tableGrid, tableWidth } from './table-model';

export interface DocxOptions {
  title: string;
  /** The `##` heading texts that each start a source file; every one after the first starts a new page. */
  fileHeadings?: string[];
  /** The pictures the Markdown links; a picture missing here is written as its alt text. */
  images?: RenderImages;
}

/** Text width of an A4 page with one-inch margins (and of a Letter page), in twentieths of a point. */
const TEXT_WIDTH_TWIPS = 9_000;
const LIST_LEVELS = 9;

const HEADING_LEVELS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
] as const;

/** What writing inline text needs: the footnotes to refer to (none inside a footnote) and the loaded pictures. */
interface InlineContext {
  notes: DocxFootnotes | null;
  pictures: ReadonlyMap<string, Picture | null>;
}

interface BlockContext extends InlineContext {
  notes: DocxFootnotes;
  lists: ListNumbering;
  pageBreaks: FileHeadingBreaks;
}

/**
 * A Word document, written from the document model: headings in Word's built-in heading styles, inline bold/italic/strike/code and real hyperlinks,
 * pictures embedded at a size that fits the page, GFM footnotes as Word footnotes, nested bulleted and numbered lists
 * on Word numbering, tables with column widths from their content, borders and a bold shaded header row that repeats
 * on each page (merged cells kept as row and column spans, a cell's runs keeping their formatting), code blocks
 * in a monospace style, and a page break before every file heading after the first. The title goes into the
 * document's core properties.
 */
export async function renderDocx(model: DocumentModel, options: DocxOptions): Promise<Buffer> {
  const notes = new DocxFootnotes(model);
  const blocks = documentBlocks(model).filter((block) => !notes.isDefinition(block));
  const context: BlockContext = {
    notes,
    pictures: await loadPictures(blockRuns(blocks), options.images),
    lists: new ListNumbering(),
    pageBreaks: new FileHeadingBreaks(options.fileHeadings ?? []),
  };
  const children = blocks.flatMap((block) => blockElements(block, context));
  const document = new Document({
    title: withoutDroppedCharacters(options.title),
    creator: 'docconv',
    styles: documentStyles(),
    numbering: context.lists.options(),
    footnotes: footnoteContents(notes, context.pictures),
    sections: [{ children }],
  });
  return Packer.toBuffer(document);
}

/** Every run of the blocks, table cells included (for the pictures they hold). */
function* blockRuns(blocks: Block[]): Generator<InlineRun> {
  for (const block of blocks) {
    if ('runs' in block) yield* block.runs;
    if (block.kind !== 'table') continue;
    const grid = tableGrid(block.table);
    for (let r = 0; r < grid.length; r++)
      for (let c = 0; c < grid[r].length; c++) yield* formattedRuns(block.table, r, c);
  }
}

function blockElements(block: Block, context: BlockContext): (Paragraph | DocxTable)[] {
  switch (block.kind) {
    case 'heading':
      return [headingParagraph(block, context)];
    case 'paragraph':
      return [
        new Paragraph({ style: block.quote ? STYLE.quote : undefined, children: inlineChildren(block.runs, context) }),
      ];
    case 'listItem':
      return [listParagraph(block, context)];
    case 'code':
      return block.text.split('\n').map((line) => new Paragraph({ style: STYLE.code, children: [new TextRun(line)] }));
    case 'table':
      return tableWidth(block.table) > 0
        ? [
            docxTable(block.table, TEXT_WIDTH_TWIPS, (line, header) =>
              inlineChildren(header ? line.map((run) => ({ ...run, bold: true })) : line, context),
            ),
            new Paragraph({}),
          ]
        : [];
    case 'rule':
      return [new Paragraph({ border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: 'AAAAAA', space: 1 } } })];
  }
}

function headingParagraph(block: HeadingBlock, context: BlockContext): Paragraph {
  return new Paragraph({
    heading: HEADING_LEVELS[Math.min(block.depth, HEADING_LEVELS.length) - 1],
    pageBreakBefore: context.pageBreaks.breaksBefore(block),
    children: inlineChildren(block.runs, context),
  });
}

/** Decides which headings start a new page: each file heading (a `##` the caller named) but the first. */
class FileHeadingBreaks {
  private readonly names: Set<string>;
  private seenFile = false;

  constructor(fileHeadings: string[]) {
    this.names = new Set(fileHeadings.map((name) => withoutDroppedCharacters(name).trim()));
  }

  breaksBefore(heading: HeadingBlock): boolean {
    if (heading.depth !== 2 || !this.names.has(heading.text)) return false;
    const breaks = this.seenFile;
    this.seenFile = true;
    return breaks;
  }
}

// ---- footnotes ----------------------------------------------------------------------------

/**
 * The body of every footnote the text referred to, by its Word id, in the footnote text style; a space parts the
 * note's number, which Word puts first, from its text.
 */
function footnoteContents(notes: DocxFootnotes, pictures: ReadonlyMap<string, Picture | null>) {
  const inside: InlineContext = { notes: null, pictures };
  const paragraph = (runs: InlineRun[], index: number): Paragraph =>
    new Paragraph({
      style: STYLE.footnoteText,
      children: [...(index === 0 ? [new TextRun(' ')] : []), ...inlineChildren(runs, inside)],
    });
  return Object.fromEntries(notes.referenced().map(([id, body]) => [id, { children: body.map(paragraph) }]));
}

/** A footnote reference: Word's numbered reference the first time, the same number as a superscript after. */
function noteReference(piece: Extract<NotePiece, { note: number }>): ParagraphChild {
  return piece.first
    ? new FootnoteReferenceRun(piece.note)
    : new TextRun({ text: String(piece.note), style: STYLE.footnoteReference });
}

// ---- inline text --------------------------------------------------------------------------

/** Runs as Word runs: line breaks become breaks, linked runs are wrapped in hyperlinks. */
function inlineChildren(runs: InlineRun[], context: InlineContext): ParagraphChild[] {
  return runs.flatMap((run) => {
    const children = runChildren(run, context);
    return run.link ? [new ExternalHyperlink({ link: run.link, children })] : children;
  });
}

/**
 * One run's Word runs: a picture the result has, or its alt text in italics when it has none; footnote references
 * in the text (outside code) as Word footnote references.
 */
function runChildren(run: InlineRun, context: InlineContext): ParagraphChild[] {
  if (run.image) {
    const picture = context.pictures.get(run.image.src);
    return picture ? [pictureRun(picture, run.image.alt)] : textRuns({ ...run, italic: true }, run.text);
  }
  const notes = context.notes;
  if (run.code || !notes) return textRuns(run, run.text);
  return notes
    .pieces(run.text)
    .flatMap((piece) => ('text' in piece ? textRuns(run, piece.text) : [noteReference(piece)]));
}

function textRuns(run: InlineRun, text: string): TextRun[] {
  return text.split('\n').map(
    (line, index) =>
      new TextRun({
        text: line,
        break: index > 0 ? 1 : undefined,
        bold: run.bold || undefined,
        italics: run.italic || undefined,
        strike: run.strike || undefined,
        font: run.code ? MONOSPACE_FONT : undefined,
        shading: run.code ? { type: ShadingType.CLEAR, color: 'auto', fill: CODE_SHADING } : undefined,
        style: run.link ? STYLE.hyperlink : undefined,
      }),
  );
}

// ---- lists --------------------------------------------------------------------------------

/**
 * Word numbering for our lists: one bulleted definition, one numbered definition per starting number
 * (a list that starts at 3 counts from 3 at every level), and one instance per Markdown list so each
 * list counts from its own start.
 */
class ListNumbering {
  private readonly starts = new Set<number>();

  reference(item: ListItemBlock): string {
    if (!item.ordered) return 'bullets';
    this.starts.add(item.start);
    return `numbers-${item.start}`;
  }

  options(): INumberingOptions {
    const bullets = { reference: 'bullets', levels: listLevels((level) => bulletLevel(level)) };
    const numbered = [...this.starts].map((start) => ({
      reference: `numbers-${start}`,
      levels: listLevels((level) => numberLevel(level, start)),
    }));
    return { config: [bullets, ...numbered] };
  }
}

function listParagraph(item: ListItemBlock, context: BlockContext): Paragraph {
  const children = inlineChildren(item.runs, context);
  return new Paragraph({
    style: STYLE.listParagraph,
    numbering: {
      reference: context.lists.reference(item),
      level: Math.min(item.level, LIST_LEVELS - 1),
      instance: item.list,
    },
    children,
  });
}

function listLevels(level: (index: number) => ILevelsOptions): ILevelsOptions[] {
  return Array.from({ length: LIST_LEVELS }, (_, index) => level(index));
}

function levelIndent(level: number) {
  return { paragraph: { indent: { left: INDENT_TWIPS * (level + 1), hanging: 360 } } };
}

function bulletLevel(level: number): ILevelsOptions {
  return {
    level,
    format: LevelFormat.BULLET,
    text: ['•', '◦', '▪'][level % 3],
    alignment: AlignmentType.LEFT,
    style: levelIndent(level),
  };
}

function numberLevel(level: number, start: number): ILevelsOptions {
  return {
    level,
    format: LevelFormat.DECIMAL,
    text: `%${level + 1}.`,
    start,
    alignment: AlignmentType.LEFT,
    style: levelIndent(level),
  };
}
