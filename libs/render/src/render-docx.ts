import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  ShadingType,
  Table as DocxTable,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ILevelsOptions,
  type INumberingOptions,
  type IStylesOptions,
  type ParagraphChild,
} from 'docx';
import { documentBlocks, type Block, type HeadingBlock, type ListItemBlock } from './document-blocks';
import { parseMarkdown, xmlSafe, type InlineRun } from './markdown-tree';
import { cellPlacements, tableGrid, tableWidth, type Table } from './table-model';

export interface DocxOptions {
  title: string;
  /** The `##` heading texts that each start a source file; every one after the first starts a new page. */
  fileHeadings?: string[];
}

const MONOSPACE = 'Consolas';
const CODE_SHADING = 'F2F2F2';
const HEADER_SHADING = 'D9E2F3';
const BORDER_COLOR = '8EA9DB';
/** Text width of an A4 or Letter page with one-inch margins, in twentieths of a point. */
const TEXT_WIDTH_TWIPS = 9_000;
/** Indentation per list level, in twentieths of a point (half an inch). */
const LIST_INDENT_TWIPS = 720;
const LIST_LEVELS = 9;
const CODE_STYLE = 'CodeBlock';
const QUOTE_STYLE = 'BlockQuote';

const HEADING_LEVELS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
] as const;

/**
 * A Word document: headings in Word's heading styles, inline bold/italic/strike/code and real hyperlinks,
 * nested bulleted and numbered lists on Word numbering, tables with borders and a bold shaded header row
 * (merged cells kept as row and column spans), code blocks in a monospace style, and a page break before
 * every file heading after the first. The title goes into the document's core properties.
 */
export async function renderDocx(markdown: string, options: DocxOptions): Promise<Buffer> {
  const blocks = documentBlocks(parseMarkdown(markdown));
  const lists = new ListNumbering();
  const pageBreaks = new FileHeadingBreaks(options.fileHeadings ?? []);
  const children = blocks.flatMap((block) => blockElements(block, lists, pageBreaks));
  const document = new Document({
    title: xmlSafe(options.title),
    creator: 'docconv',
    styles: documentStyles(),
    numbering: lists.options(),
    sections: [{ children }],
  });
  return Packer.toBuffer(document);
}

function blockElements(block: Block, lists: ListNumbering, pageBreaks: FileHeadingBreaks): (Paragraph | DocxTable)[] {
  switch (block.kind) {
    case 'heading':
      return [headingParagraph(block, pageBreaks.breaksBefore(block))];
    case 'paragraph':
      return [new Paragraph({ style: block.quote ? QUOTE_STYLE : undefined, children: inlineChildren(block.runs) })];
    case 'listItem':
      return [listParagraph(block, lists)];
    case 'code':
      return block.text.split('\n').map((line) => new Paragraph({ style: CODE_STYLE, children: [new TextRun(line)] }));
    case 'table':
      return tableWidth(block.table) > 0 ? [docxTable(block.table), new Paragraph({})] : [];
    case 'rule':
      return [new Paragraph({ border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: 'AAAAAA', space: 1 } } })];
  }
}

function headingParagraph(block: HeadingBlock, pageBreakBefore: boolean): Paragraph {
  return new Paragraph({
    heading: HEADING_LEVELS[Math.min(block.depth, HEADING_LEVELS.length) - 1],
    pageBreakBefore,
    children: inlineChildren(block.runs),
  });
}

/** Decides which headings start a new page: each file heading (a `##` the caller named) but the first. */
class FileHeadingBreaks {
  private readonly names: Set<string>;
  private seenFile = false;

  constructor(fileHeadings: string[]) {
    this.names = new Set(fileHeadings.map((name) => xmlSafe(name).trim()));
  }

  breaksBefore(heading: HeadingBlock): boolean {
    if (heading.depth !== 2 || !this.names.has(heading.text)) return false;
    const breaks = this.seenFile;
    this.seenFile = true;
    return breaks;
  }
}

// ---- inline text --------------------------------------------------------------------------

/** Runs as Word runs: line breaks become breaks, linked runs are wrapped in hyperlinks. */
function inlineChildren(runs: InlineRun[]): ParagraphChild[] {
  return runs
    .map((run) => {
      const textRuns = textRunsOf(run);
      return run.link ? new ExternalHyperlink({ link: run.link, children: textRuns }) : textRuns;
    })
    .flat();
}

function textRunsOf(run: InlineRun): TextRun[] {
  return run.text.split('\n').map(
    (text, index) =>
      new TextRun({
        text,
        break: index > 0 ? 1 : undefined,
        bold: run.bold || undefined,
        italics: run.italic || undefined,
        strike: run.strike || undefined,
        font: run.code ? MONOSPACE : undefined,
        shading: run.code ? { type: ShadingType.CLEAR, color: 'auto', fill: CODE_SHADING } : undefined,
        style: run.link ? 'Hyperlink' : undefined,
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

function listParagraph(item: ListItemBlock, lists: ListNumbering): Paragraph {
  const children = inlineChildren(item.runs);
  if (item.continuation) {
    return new Paragraph({ indent: { left: LIST_INDENT_TWIPS * (item.level + 1) }, children });
  }
  return new Paragraph({
    numbering: { reference: lists.reference(item), level: Math.min(item.level, LIST_LEVELS - 1), instance: item.list },
    children,
  });
}

function listLevels(level: (index: number) => ILevelsOptions): ILevelsOptions[] {
  return Array.from({ length: LIST_LEVELS }, (_, index) => level(index));
}

function levelIndent(level: number) {
  return { paragraph: { indent: { left: LIST_INDENT_TWIPS * (level + 1), hanging: 360 } } };
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

// ---- tables -------------------------------------------------------------------------------

const BORDER = { style: BorderStyle.SINGLE, size: 4, color: BORDER_COLOR };

/** A bordered table; header rows repeat on each page, bold on a shaded background; merges become spans. */
function docxTable(table: Table): DocxTable {
  const width = tableWidth(table);
  const columnWidth = Math.floor(TEXT_WIDTH_TWIPS / width);
  const placements = cellPlacements(table);
  const rows = tableGrid(table).map((cells, r) => {
    const header = r < table.header.length;
    const children = cells.flatMap((text, c) => {
      const placement = placements[r][c];
      if (placement.kind === 'covered') return [];
      const rowSpan = placement.kind === 'start' ? placement.range.bottom - placement.range.top + 1 : 1;
      const columnSpan = placement.kind === 'start' ? placement.range.right - placement.range.left + 1 : 1;
      return [
        new TableCell({
          children: cellParagraphs(text, header),
          rowSpan: rowSpan > 1 ? rowSpan : undefined,
          columnSpan: columnSpan > 1 ? columnSpan : undefined,
          width: { size: columnWidth * columnSpan, type: WidthType.DXA },
          shading: header ? { type: ShadingType.CLEAR, color: 'auto', fill: HEADER_SHADING } : undefined,
        }),
      ];
    });
    return new TableRow({ tableHeader: header || undefined, children });
  });
  return new DocxTable({
    rows,
    width: { size: columnWidth * width, type: WidthType.DXA },
    columnWidths: Array<number>(width).fill(columnWidth),
    borders: {
      top: BORDER,
      bottom: BORDER,
      left: BORDER,
      right: BORDER,
      insideHorizontal: BORDER,
      insideVertical: BORDER,
    },
  });
}

function cellParagraphs(text: string, header: boolean): Paragraph[] {
  return text
    .split('\n')
    .map((line) => new Paragraph({ children: [new TextRun({ text: line, bold: header || undefined })] }));
}

// ---- styles -------------------------------------------------------------------------------

/** The paragraph styles we add to Word's defaults: code blocks and block quotes. */
function documentStyles(): IStylesOptions {
  return {
    paragraphStyles: [
      {
        id: CODE_STYLE,
        name: 'Code Block',
        basedOn: 'Normal',
        run: { font: MONOSPACE, size: 19 },
        paragraph: {
          spacing: { before: 0, after: 0 },
          shading: { type: ShadingType.CLEAR, color: 'auto', fill: CODE_SHADING },
        },
      },
      {
        id: QUOTE_STYLE,
        name: 'Block Quote',
        basedOn: 'Normal',
        run: { italics: true, color: '555555' },
        paragraph: {
          indent: { left: LIST_INDENT_TWIPS },
          border: { left: { style: BorderStyle.SINGLE, size: 12, color: 'BBBBBB', space: 8 } },
        },
      },
    ],
  };
}
