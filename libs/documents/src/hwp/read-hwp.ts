import { DomainError } from '@docconv/contracts';
import { DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import type {
  Block,
  Caption,
  HancomDocument,
  HancomSection,
  Inline,
  Paragraph,
  ParagraphRole,
  Table,
  TableCell,
} from '../hancom/model';
import { NumberingCounter } from '../hancom/numbering';
import { HwpCharts } from './hwp-charts';
import type { Chart } from '../office/charts';
import { HWPTAG, HwpFile, type HwpRecord } from './hwp-file';
import {
  controlId,
  counted,
  paragraphLists,
  recordTree,
  u16,
  u32,
  u8,
  type ParagraphList,
  type RecordNode,
} from './hwp-records';
import { readStyleBook, type StyleBook } from './hwp-styles';
import { InlineBuilder } from './inline-builder';

/**
 * The shared Hancom model from an HWP 5 document, read from its record streams: the document
 * info's shapes, numberings and styles resolve each paragraph's role, label and emphasis; the
 * body sections give paragraphs, tables, pictures, text boxes, charts, equations, notes, links
 * and the sections' headers and footers.
 */
export function readHwp(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): HancomDocument {
  const file = HwpFile.open(path, displayName, limits);
  const docInfo = file.docInfo();
  const sections = file.sections();
  try {
    const charts = new HwpCharts(file, docInfo);
    const reader = new HwpReader(readStyleBook(docInfo), (id) => charts.chart(id));
    return { sections: sections.map((records) => reader.section(records)) };
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError(
      'unsupported_format',
      `${displayName} could not be read as an HWP document (its body is damaged). Check that it opens in Hangul, or save it again as HWP or HWPX and upload that.`,
    );
  }
}

/** Paragraph break kinds (PARA_HEADER byte 11). */
const SECTION_BREAK = 0x01;
const PAGE_BREAK = 0x04;

/** Control characters one WCHAR wide; all others below 32 take eight (the control and its data). */
const CHAR_CONTROLS = new Set([0, 10, 13, 24, 25, 26, 27, 28, 29, 30, 31]);
/** Eight-WCHAR controls that carry no CTRL_HEADER record: field end, tab and reserved codes. */
const INLINE_CONTROLS = new Set([4, 5, 6, 7, 8, 9, 19, 20]);

/** The control characters of HWP 5.0 paragraph text that the reader gives a meaning. */
const CONTROL = {
  fieldEnd: 4,
  tab: 9,
  lineBreak: 10,
  hyphen: 24,
  nonBreakingSpace: 30,
  fixedWidthSpace: 31,
} as const;

/** Auto-number kinds (the atno control's attributes, bits 0–3). */
const NUMBER_KIND = { PAGE: 0, FOOTNOTE: 1, ENDNOTE: 2, PICTURE: 3, TABLE: 4, EQUATION: 5 } as const;

/** Caption sides (bits 0–1 of the caption list's attributes). */
const CAPTION_LEFT = 0;
const CAPTION_TOP = 2;

class HwpReader {
  private readonly counter = new NumberingCounter();
  /** The outline numbering of the section being read (as its definition or an earlier one names it), counted from 1. */
  private outlineNumbering = 1;
  private current: HancomSection = { blocks: [], headers: [], footers: [] };

  constructor(
    private readonly book: StyleBook,
    /** The chart of the OLE object whose BinData item is the given id. */
    private readonly chart: (binDataId: number) => Chart | undefined = () => undefined,
  ) {}

  section(records: HwpRecord[]): HancomSection {
    this.current = { blocks: [], headers: [], footers: [] };
    const paragraphs = recordTree(records).filter((node) => node.record.tag === HWPTAG.PARA_HEADER);
    for (const [index, paragraph] of paragraphs.entries()) {
      this.current.blocks.push(this.paragraph(paragraph, index === 0));
    }
    return this.current;
  }

  private paragraphs(list: ParagraphList | undefined): Block[] {
    return list ? list.paragraphs.map((node) => this.paragraph(node, true)) : [];
  }

  private paragraph(node: RecordNode, firstInSection: boolean): Paragraph {
    const header = node.record.data;
    const breaks = u8(header, 11);
    const controls = node.children.filter((c) => c.record.tag === HWPTAG.CTRL_HEADER);
    const sectionDefinition = controls.find((c) => controlId(c.record.data) === 'secd');
    // The section definition names the outline numbering: bytes 18–19, after its attributes, gaps and tab stop.
    if (sectionDefinition) this.outlineNumbering = u16(sectionDefinition.record.data, 18) || 1;

    const { role, label } = this.roleOf(u16(header, 8), u8(header, 10));
    const text = node.children.find((c) => c.record.tag === HWPTAG.PARA_TEXT)?.record.data ?? Buffer.alloc(0);
    const shapes = node.children.find((c) => c.record.tag === HWPTAG.PARA_CHAR_SHAPE)?.record.data;
    const inlines = this.inlines(text, shapes ?? Buffer.alloc(0), controls);
    const paragraph: Paragraph = { type: 'paragraph', role, label, inlines };
    if ((breaks & PAGE_BREAK) !== 0 || ((breaks & SECTION_BREAK) !== 0 && !firstInSection)) paragraph.pageBreak = true;
    return paragraph;
  }

  private roleOf(paraShapeId: number, styleId: number): { role: ParagraphRole; label: string } {
    const shape = this.book.paraShapes[paraShapeId];
    switch (shape?.heading) {
      case 'outline': {
        const numbering = this.book.numberings[this.outlineNumbering - 1] ?? this.book.numberings[0];
        const label = numbering ? this.counter.next(`outline:${this.outlineNumbering}`, numbering, shape.level) : '';
        return { role: { kind: 'heading', level: Math.min(6, shape.level + 1) }, label };
      }
      case 'number': {
        const numbering = this.book.numberings[shape.ref - 1];
        const label = numbering ? this.counter.next(`number:${shape.ref}`, numbering, shape.level) : '';
        return { role: { kind: 'list', level: shape.level, ordered: true }, label };
      }
      case 'bullet':
        return {
          role: { kind: 'list', level: shape.level, ordered: false },
          label: this.book.bullets[shape.ref - 1] ?? '',
        };
      case 'none':
      case undefined:
        break;
    }
    return { role: this.book.styleRoles[styleId] ?? { kind: 'body' }, label: '' };
  }

  /**
   * A paragraph's text and objects. Its PARA_TEXT is UTF-16 in which codes below 32 are controls;
   * the extended ones are paired in order with the paragraph's CTRL_HEADER records, and the
   * character-shape runs (start position, shape id) cover the text including the controls.
   */
  private inlines(text: Buffer, shapes: Buffer, controls: RecordNode[]): Inline[] {
    const out = new InlineBuilder();
    const runs: [number, number][] = [];
    for (let offset = 0; offset + 8 <= shapes.length; offset += 8)
      runs.push([u32(shapes, offset), u32(shapes, offset + 4)]);
    let run = 0;
    let control = 0;
    const units = Math.floor(text.length / 2);
    for (let i = 0; i < units;) {
      while (run + 1 < runs.length && runs[run + 1][0] <= i) run++;
      out.shape = this.book.charShapes[runs[run]?.[1] ?? 0];
      const code = text.readUInt16LE(i * 2);
      if (code >= 32) {
        out.text(String.fromCharCode(code));
        i++;
      } else if (CHAR_CONTROLS.has(code)) {
        if (code === CONTROL.lineBreak) out.push({ type: 'break' });
        else if (code === CONTROL.hyphen) out.text('-');
        else if (code === CONTROL.nonBreakingSpace || code === CONTROL.fixedWidthSpace) out.text(' ');
        i++;
      } else if (INLINE_CONTROLS.has(code)) {
        if (code === CONTROL.tab) out.text(' ');
        else if (code === CONTROL.fieldEnd) out.closeField();
        i += 8;
      } else {
        const node = controls[control++];
        if (node) this.control(node, out);
        i += 8;
      }
    }
    return out.finish();
  }

  private control(node: RecordNode, out: InlineBuilder): void {
    const data = node.record.data;
    const id = controlId(data);
    switch (id) {
      case 'tbl ':
        out.push({ type: 'table', table: this.table(node) });
        return;
      case 'gso ':
        this.drawingObject(node, out);
        return;
      case 'eqed': {
        const equation = node.children.find((c) => c.record.tag === HWPTAG.EQEDIT);
        // EQEDIT: attributes, then the script as a counted string.
        out.push({ type: 'equation', script: equation ? counted(equation.record.data, 4)[0] : '' });
        return;
      }
      case 'head':
      case 'foot': {
        const blocks = this.paragraphs(paragraphLists(node.children)[0]);
        (id === 'head' ? this.current.headers : this.current.footers).push(blocks);
        return;
      }
      case 'fn  ':
      case 'en  ':
        out.push({
          type: 'note',
          kind: id === 'fn  ' ? 'footnote' : 'endnote',
          blocks: this.paragraphs(paragraphLists(node.children)[0]),
        });
        return;
      case 'atno': {
        const kind = u32(data, 4) & 0xf;
        if (kind === NUMBER_KIND.PICTURE || kind === NUMBER_KIND.TABLE || kind === NUMBER_KIND.EQUATION) {
          out.text(String(u16(data, 8)));
        }
        return;
      }
      case 'tdut':
        // Dutmal: the main text, then the text set above or below it.
        out.text(counted(data, 4)[0]);
        return;
      case 'tcps':
        // Overlapping characters: the characters set on one another.
        out.text(counted(data, 4)[0].replace(/\0/g, ''));
        return;
      case '%hlk':
        // Field: attributes (4), extra attributes (1), then the command; a link's starts with its address.
        out.openField(hyperlinkAddress(counted(data, 9)[0]));
        return;
      default:
        // Other fields keep their text; section and column definitions, page controls, bookmarks,
        // new-number controls (each auto-number stores its own value) and hidden comments carry none.
        if (id.startsWith('%')) out.openField(undefined);
        return;
    }
  }

  private table(node: RecordNode): Table {
    const at = node.children.findIndex((c) => c.record.tag === HWPTAG.TABLE);
    const record = at >= 0 ? node.children[at].record.data : Buffer.alloc(0);
    const table: Table = { type: 'table', rows: u16(record, 4), cols: u16(record, 6), cells: [] };
    const captionList = at > 0 ? paragraphLists(node.children.slice(0, at))[0] : undefined;
    if (captionList) table.caption = this.caption(captionList);
    for (const list of paragraphLists(node.children.slice(at + 1))) {
      // Cell list header: paragraph count, attributes, then column, row, column span, row span.
      const cell: TableCell = {
        col: u16(list.header, 8),
        row: u16(list.header, 10),
        colSpan: Math.max(1, u16(list.header, 12)),
        rowSpan: Math.max(1, u16(list.header, 14)),
        blocks: this.paragraphs(list),
      };
      table.cells.push(cell);
    }
    return table;
  }

  private caption(list: ParagraphList): Caption {
    const side = u32(list.header, 8) & 0x3;
    return { before: side === CAPTION_LEFT || side === CAPTION_TOP, blocks: this.paragraphs(list) };
  }

  /**
   * A drawing object: a picture (with the comment its author gave it as its description), a chart
   * with its caption, or a shape, group or other OLE object whose text boxes and caption are kept
   * as the text it carries.
   */
  private drawingObject(node: RecordNode, out: InlineBuilder): void {
    const captionList = paragraphLists(node.children)[0];
    const caption = captionList ? this.caption(captionList) : undefined;
    const component = node.children.find((c) => c.record.tag === HWPTAG.SHAPE_COMPONENT);
    if (component?.children.some((c) => c.record.tag === HWPTAG.SHAPE_COMPONENT_PICTURE)) {
      const image: Inline = { type: 'image', alt: objectDescription(node.record.data) };
      if (caption) image.caption = caption;
      out.push(image);
      return;
    }
    // SHAPE_COMPONENT_OLE: attributes, then the object's extent (two INT32s), then its BinData item.
    const ole = component?.children.find((c) => c.record.tag === HWPTAG.SHAPE_COMPONENT_OLE);
    const chart = ole ? this.chart(u16(ole.record.data, 12)) : undefined;
    if (chart !== undefined) {
      if (caption?.before && caption.blocks.length > 0) out.push({ type: 'objects', blocks: caption.blocks });
      out.push({ type: 'chart', chart });
      if (caption && !caption.before && caption.blocks.length > 0)
        out.push({ type: 'objects', blocks: caption.blocks });
      return;
    }
    const blocks = component ? this.shapeText(component) : [];
    if (caption?.before) blocks.unshift(...caption.blocks);
    else if (caption) blocks.push(...caption.blocks);
    if (blocks.length > 0) out.push({ type: 'objects', blocks });
  }

  /** The paragraphs of a shape's text box and, for a group, of each shape in it. */
  private shapeText(component: RecordNode): Block[] {
    const blocks: Block[] = [];
    for (const list of paragraphLists(component.children)) blocks.push(...this.paragraphs(list));
    for (const child of component.children) {
      if (child.record.tag === HWPTAG.SHAPE_COMPONENT) blocks.push(...this.shapeText(child));
    }
    return blocks;
  }
}

/**
 * The description of a drawing object, from its common properties: attributes, offsets, size,
 * z-order, margins, instance id and page-split flag (44 bytes with the control id), then the text.
 */
function objectDescription(data: Buffer): string {
  return counted(data, 44)[0].replace(/\r\n?/g, '\n').replace(/\0/g, '');
}

/** A hyperlink field's address: its command up to the first unescaped `;`, with `\` escapes undone. */
function hyperlinkAddress(command: string): string {
  const end = /(?<!\\);/.exec(command);
  return (end ? command.slice(0, end.index) : command).replace(/\\(.)/g, '$1');
}
