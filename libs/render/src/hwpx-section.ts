import type { Block, HeadingBlock, ListItemBlock } from './document-blocks';
import {
  BODY_CHAR,
  BORDER_FILL,
  CODE_CHAR,
  headingChar,
  PARA_SHAPE,
  STYLE,
  TEXT_WIDTH,
  type CharShape,
} from './hwpx-styles';
import type { HwpxStyleBook } from './hwpx-header';
import type { HwpxPictures, PlacedPicture } from './hwpx-pictures';
import { sectionSettingsRun } from './hwpx-page';
import { element, OWPML_NAMESPACES, textNode, xmlPart } from './hwpx-xml';
import { runLines, type InlineRun } from './markdown-tree';
import { fitWithin } from './render-images';
import { cellPlacements, formattedRuns, tableGrid, tableWidth, type Table } from './table-model';

/** HWPUNIT per pixel at 96 pixels to the inch. */
const HWPUNIT_PER_PIXEL = 75;
/** The tallest a picture is drawn: most of an A4 page's text height. */
const MAX_PICTURE_HEIGHT = 60_000;
/** Outer margin of a table, on every side. */
const TABLE_OUTER_MARGIN = 283;
const CELL_MARGIN = { left: 510, right: 510, top: 141, bottom: 141 };
/** The least height of a table row; rows grow with their text. */
const ROW_HEIGHT = 282;
/** Spaces a tab in a code block becomes. */
const TAB = '    ';

/**
 * `Contents/section0.xml`: the document's blocks as OWPML paragraphs. Headings are outline
 * paragraphs in the 개요 styles; bulleted items are bullet paragraphs, numbered items carry their
 * number as text; code blocks are monospace paragraphs on a grey fill; tables are bordered grids
 * with their header rows marked and shaded, merged cells spanning (covered cells left out) and each
 * cell's runs in their own char properties;
 * pictures are drawn inline from `BinData/`. Hard line breaks stay line breaks. The first
 * paragraph carries the section's page settings (A4 portrait).
 */
export function sectionXml(blocks: Block[], book: HwpxStyleBook, pictures: HwpxPictures): string {
  const writer = new SectionWriter(book, pictures);
  for (const block of blocks) writer.block(block);
  return xmlPart(element('hs:sec', OWPML_NAMESPACES, ...writer.paragraphs()));
}

interface Paragraph {
  paraShape: number;
  style: number;
  runs: string[];
}

class SectionWriter {
  private readonly written: Paragraph[] = [];
  /** Ids of tables and pictures, unique in the document. */
  private nextObjectId = 1;

  constructor(
    private readonly book: HwpxStyleBook,
    private readonly pictures: HwpxPictures,
  ) {}

  block(block: Block): void {
    switch (block.kind) {
      case 'heading':
        this.heading(block);
        return;
      case 'paragraph':
        this.push(
          block.quote ? PARA_SHAPE.quote : PARA_SHAPE.body,
          block.quote ? STYLE.quote : STYLE.normal,
          this.runs(block.runs, BODY_CHAR),
        );
        return;
      case 'listItem':
        this.listItem(block);
        return;
      case 'code':
        for (const line of block.text.split('\n'))
          this.push(PARA_SHAPE.code, STYLE.code, [this.textRun(line.replace(/\t/g, TAB), CODE_CHAR)]);
        return;
      case 'table':
        if (tableWidth(block.table) > 0) this.push(PARA_SHAPE.body, STYLE.normal, [this.table(block.table)]);
        return;
      case 'rule':
        this.push(PARA_SHAPE.rule, STYLE.normal, []);
        return;
    }
  }

  /** The paragraphs written, the first carrying the section's settings. */
  paragraphs(): string[] {
    const [first, ...rest] = this.written.length > 0 ? this.written : [{ paraShape: 0, style: 0, runs: [] }];
    return [paragraph({ ...first, runs: [sectionSettingsRun(), ...first.runs] }), ...rest.map(paragraph)];
  }

  private push(paraShape: number, style: number, runs: string[]): void {
    this.written.push({ paraShape, style, runs });
  }

  private heading(block: HeadingBlock): void {
    if (block.text === '') return;
    this.push(
      PARA_SHAPE.heading(block.depth),
      STYLE.heading(block.depth),
      this.runs(block.runs, headingChar(block.depth)),
    );
  }

  private listItem(item: ListItemBlock): void {
    const runs = this.runs(item.runs, BODY_CHAR);
    if (!item.ordered) this.push(PARA_SHAPE.bullet(item.level), STYLE.normal, runs);
    else
      this.push(PARA_SHAPE.indented(item.level), STYLE.normal, [this.textRun(`${item.number}. `, BODY_CHAR), ...runs]);
  }

  // ---- runs -------------------------------------------------------------------------------

  /** Inline runs on a base look: emphasis, strike, code and links change it; pictures are drawn where they stand. */
  private runs(runs: InlineRun[], base: CharShape): string[] {
    return runs.map((run) => {
      const shape: CharShape = {
        ...base,
        bold: base.bold || run.bold,
        italic: run.italic,
        strike: run.strike,
        link: run.link !== null,
        ...(run.code ? { font: CODE_CHAR.font, shaded: true } : {}),
      };
      const picture = run.image ? this.pictures.place(run.image.src) : undefined;
      return picture ? this.pictureRun(picture, run.image?.alt ?? '', shape) : this.textRun(run.text, shape);
    });
  }

  /** Text in one look; each `\n` a line break inside the paragraph. */
  private textRun(text: string, shape: CharShape): string {
    const pieces = text
      .split('\n')
      .flatMap((line, index) => [
        ...(index > 0 ? [element('hp:lineBreak')] : []),
        ...(line === '' ? [] : [textNode(line)]),
      ]);
    return element('hp:run', { charPrIDRef: this.book.charShape(shape) }, element('hp:t', {}, ...pieces));
  }

  // ---- pictures ---------------------------------------------------------------------------

  /** A picture drawn as a character of its line, at most the text width wide, with its alt text as its description. */
  private pictureRun(picture: PlacedPicture, alt: string, shape: CharShape): string {
    const original = { width: picture.width * HWPUNIT_PER_PIXEL, height: picture.height * HWPUNIT_PER_PIXEL };
    const fitted = fitWithin(original, TEXT_WIDTH, MAX_PICTURE_HEIGHT);
    const width = Math.max(1, Math.round(fitted.width));
    const height = Math.max(1, Math.round(fitted.height));
    const id = this.nextObjectId++;
    const identity = { e1: 1, e2: 0, e3: 0, e4: 0, e5: 1, e6: 0 };
    const pic = element(
      'hp:pic',
      {
        id,
        zOrder: id,
        numberingType: 'PICTURE',
        textWrap: 'TOP_AND_BOTTOM',
        textFlow: 'BOTH_SIDES',
        lock: 0,
        dropcapstyle: 'None',
        href: '',
        groupLevel: 0,
        instid: id,
        reverse: 0,
      },
      element('hp:offset', { x: 0, y: 0 }),
      element('hp:orgSz', { width, height }),
      element('hp:curSz', { width, height }),
      element('hp:flip', { horizontal: 0, vertical: 0 }),
      element('hp:rotationInfo', { angle: 0, centerX: Math.round(width / 2), centerY: Math.round(height / 2) }),
      element(
        'hp:renderingInfo',
        {},
        element('hc:transMatrix', identity),
        element('hc:scaMatrix', identity),
        element('hc:rotMatrix', identity),
      ),
      element(
        'hp:imgRect',
        {},
        element('hc:pt0', { x: 0, y: 0 }),
        element('hc:pt1', { x: width, y: 0 }),
        element('hc:pt2', { x: width, y: height }),
        element('hc:pt3', { x: 0, y: height }),
      ),
      element('hp:imgClip', { left: 0, right: original.width, top: 0, bottom: original.height }),
      element('hp:inMargin', { left: 0, right: 0, top: 0, bottom: 0 }),
      element('hc:img', { binaryItemIDRef: picture.itemId, bright: 0, contrast: 0, effect: 'REAL_PIC', alpha: 0 }),
      element('hp:effects'),
      element('hp:sz', { width, widthRelTo: 'ABSOLUTE', height, heightRelTo: 'ABSOLUTE', protect: 0 }),
      inlinePosition(),
      element('hp:outMargin', { left: 0, right: 0, top: 0, bottom: 0 }),
      alt.trim() === '' ? '' : element('hp:shapeComment', {}, textNode(alt)),
    );
    return element('hp:run', { charPrIDRef: this.book.charShape(shape) }, pic, element('hp:t'));
  }

  // ---- tables -----------------------------------------------------------------------------

  /**
   * A table as a run holding it: equal columns across the text width, every cell at its address
   * with its spans, the cells a merge covers left out, header rows marked, shaded and repeated on
   * each page, each line of a cell's text its own paragraph.
   */
  private table(table: Table): string {
    const grid = tableGrid(table);
    const columns = tableWidth(table);
    const columnWidth = Math.floor((TEXT_WIDTH - 2 * TABLE_OUTER_MARGIN) / columns);
    const placements = cellPlacements(table);
    const rows = grid.map((cells, r) => {
      const header = r < table.header.length;
      const tcs = cells.flatMap((_, c) => {
        const placement = placements[r][c];
        if (placement.kind === 'covered') return [];
        const range = placement.kind === 'start' ? placement.range : { top: r, left: c, bottom: r, right: c };
        const colSpan = range.right - range.left + 1;
        const rowSpan = range.bottom - range.top + 1;
        return [
          element(
            'hp:tc',
            {
              name: '',
              header: header ? 1 : 0,
              hasMargin: 0,
              protect: 0,
              editable: 0,
              dirty: 0,
              borderFillIDRef: header ? BORDER_FILL.headerCell : BORDER_FILL.cell,
            },
            element(
              'hp:subList',
              {
                id: '',
                textDirection: 'HORIZONTAL',
                lineWrap: 'BREAK',
                vertAlign: 'CENTER',
                linkListIDRef: 0,
                linkListNextIDRef: 0,
                textWidth: 0,
                textHeight: 0,
                hasTextRef: 0,
                hasNumRef: 0,
              },
              ...this.cellParagraphs(formattedRuns(table, r, c), header),
            ),
            element('hp:cellAddr', { colAddr: c, rowAddr: r }),
            element('hp:cellSpan', { colSpan, rowSpan }),
            element('hp:cellSz', { width: columnWidth * colSpan, height: ROW_HEIGHT * rowSpan }),
            element('hp:cellMargin', CELL_MARGIN),
          ),
        ];
      });
      return element('hp:tr', {}, ...tcs);
    });
    const outer = {
      left: TABLE_OUTER_MARGIN,
      right: TABLE_OUTER_MARGIN,
      top: TABLE_OUTER_MARGIN,
      bottom: TABLE_OUTER_MARGIN,
    };
    const tbl = element(
      'hp:tbl',
      {
        id: this.nextObjectId++,
        zOrder: 0,
        numberingType: 'TABLE',
        textWrap: 'TOP_AND_BOTTOM',
        textFlow: 'BOTH_SIDES',
        lock: 0,
        dropcapstyle: 'None',
        pageBreak: 'CELL',
        repeatHeader: table.header.length > 0 ? 1 : 0,
        rowCnt: grid.length,
        colCnt: columns,
        cellSpacing: 0,
        borderFillIDRef: BORDER_FILL.cell,
        noAdjust: 0,
      },
      element('hp:sz', {
        width: columnWidth * columns,
        widthRelTo: 'ABSOLUTE',
        height: ROW_HEIGHT * grid.length,
        heightRelTo: 'ABSOLUTE',
        protect: 0,
      }),
      inlinePosition(),
      element('hp:outMargin', outer),
      element('hp:inMargin', CELL_MARGIN),
      ...rows,
    );
    return element('hp:run', { charPrIDRef: this.book.charShape(BODY_CHAR) }, tbl, element('hp:t'));
  }

  /** A cell's lines as paragraphs, each run in its own char properties (bold, italic, strike, code). */
  private cellParagraphs(runs: InlineRun[], header: boolean): string[] {
    const paraShape = header ? PARA_SHAPE.headerCell : PARA_SHAPE.cell;
    return runLines(runs).map((line) =>
      paragraph({ paraShape, style: STYLE.normal, runs: this.runs(line, BODY_CHAR) }),
    );
  }
}

/** One paragraph; an empty one still holds a run, as Hancom writes it. */
function paragraph({ paraShape, style, runs }: Paragraph): string {
  return element(
    'hp:p',
    { id: 0, paraPrIDRef: paraShape, styleIDRef: style, pageBreak: 0, columnBreak: 0, merged: 0 },
    ...(runs.length > 0 ? runs : [element('hp:run', { charPrIDRef: 0 })]),
  );
}

/** Where a table or picture stands: as a character of its paragraph's line, so it flows with the text. */
function inlinePosition(): string {
  return element('hp:pos', {
    treatAsChar: 1,
    affectLSpacing: 0,
    flowWithText: 1,
    allowOverlap: 0,
    holdAnchorAndSO: 0,
    vertRelTo: 'PARA',
    horzRelTo: 'COLUMN',
    vertAlign: 'TOP',
    horzAlign: 'LEFT',
    vertOffset: 0,
    horzOffset: 0,
  });
}
