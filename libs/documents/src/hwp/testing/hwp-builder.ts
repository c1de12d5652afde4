import CFB from 'cfb';
import { deflateRawSync } from 'node:zlib';
import { HWPTAG } from '../hwp-file';

/**
 * Writes small HWP 5 documents for tests: the document info's tables (character and paragraph
 * shapes, numberings, bullets, styles, BinData items) and body sections of paragraphs whose pieces
 * become PARA_TEXT, character-shape runs and controls with their child records, laid out as Hangul
 * writes them, in a compressed compound file.
 */

export interface CharShapeSpec {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  superscript?: boolean;
  subscript?: boolean;
}

export interface ParaShapeSpec {
  heading?: 'none' | 'outline' | 'number' | 'bullet';
  /** Level counted from 0. */
  level?: number;
  /** Numbering or bullet id, counted from 1. */
  ref?: number;
}

export interface NumberingLevelSpec {
  pattern: string;
  /** HWP 5 number-format code (0 digits, 8 Hangul syllables, …). */
  format?: number;
  start?: number;
}

export interface ParagraphSpec {
  pieces: Piece[];
  paraShape?: number;
  style?: number;
  pageBreak?: boolean;
}

export interface CellSpec {
  row: number;
  col: number;
  rowSpan?: number;
  colSpan?: number;
  paragraphs: ParagraphSpec[];
}

export type CaptionSide = 'left' | 'right' | 'top' | 'bottom';

export type Piece =
  | { text: string; charShape?: number }
  | { lineBreak: true }
  | { tab: true }
  | { nonBreakingSpace: true }
  | {
      table: {
        rows: number;
        cols: number;
        cells: CellSpec[];
        caption?: { side: CaptionSide; paragraphs: ParagraphSpec[] };
      };
    }
  | { note: 'footnote' | 'endnote'; paragraphs: ParagraphSpec[] }
  | { header: ParagraphSpec[] }
  | { footer: ParagraphSpec[] }
  /** A hyperlink field around `text`; with `open`, those pieces follow the text and the field never ends. */
  | { link: string; text: string; open?: Piece[] }
  | { field: string; text: string }
  | { equation: string }
  | { textBox: ParagraphSpec[] }
  | { picture: { description: string; caption?: { side: CaptionSide; paragraphs: ParagraphSpec[] } } }
  /** An OLE object (a chart, when its item holds one) on BinData item `ole`, counted from 1. */
  | { ole: number; caption?: { side: CaptionSide; paragraphs: ParagraphSpec[] } }
  /** Kind as in the format: 0 page, 1 footnote, 2 endnote, 3 picture, 4 table, 5 equation. */
  | { autoNumber: number; value: number }
  | { sectionDefinition: { outlineNumbering: number } }
  | { bookmark: true };

const CAPTION_SIDES: Record<CaptionSide, number> = { left: 0, right: 1, top: 2, bottom: 3 };
const HEADINGS = { none: 0, outline: 1, number: 2, bullet: 3 } as const;

/** Extended controls' character codes, by what they stand for. */
const CONTROL_CHAR = { section: 2, field: 3, object: 11, headerFooter: 16, note: 17, autoNumber: 18, bookmark: 22 };
const FIELD_END = 4;

interface Record_ {
  tag: number;
  level: number;
  data: Buffer;
}

export class HwpBuilder {
  private readonly info: Record_[] = [];
  private counts = { charShapes: 0, paraShapes: 0, numberings: 0, bullets: 0, styles: 0, binData: 0 };
  private readonly sections: ParagraphSpec[][] = [[]];
  /** BinData streams by storage id, as stored. */
  private readonly binStreams = new Map<number, Buffer>();

  constructor() {
    this.charShape({});
    this.paraShape({});
    this.style('바탕글', 'Normal');
  }

  /** Adds a character shape; returns its id (the default shape is 0). */
  charShape(spec: CharShapeSpec): number {
    const data = Buffer.alloc(74);
    let attributes = 0;
    if (spec.italic) attributes |= 0x1;
    if (spec.bold) attributes |= 0x2;
    if (spec.superscript) attributes |= 0x8000;
    if (spec.subscript) attributes |= 0x10000;
    if (spec.strike) attributes |= 1 << 18;
    data.writeInt32LE(1000, 42);
    data.writeUInt32LE(attributes >>> 0, 46);
    this.info.push({ tag: HWPTAG.CHAR_SHAPE, level: 0, data });
    return this.counts.charShapes++;
  }

  /** Adds a paragraph shape; returns its id (the default shape is 0). */
  paraShape(spec: ParaShapeSpec): number {
    const data = Buffer.alloc(54);
    const attributes = (HEADINGS[spec.heading ?? 'none'] << 23) | ((spec.level ?? 0) << 25);
    data.writeUInt32LE(attributes >>> 0, 0);
    data.writeUInt16LE(spec.ref ?? 0, 30);
    this.info.push({ tag: HWPTAG.PARA_SHAPE, level: 0, data });
    return this.counts.paraShapes++;
  }

  /** Adds a numbering of up to seven levels; returns its id, counted from 1. */
  numbering(levels: NumberingLevelSpec[]): number {
    const parts: Buffer[] = [];
    for (let l = 0; l < 7; l++) {
      const level = levels[l] ?? { pattern: '' };
      const head = Buffer.alloc(12);
      head.writeUInt32LE(((level.format ?? 0) << 5) | 0x0c, 0);
      head.writeUInt16LE(50, 6);
      head.writeUInt32LE(0xffffffff, 8);
      parts.push(head, counted(level.pattern));
    }
    parts.push(u16(0));
    for (let l = 0; l < 7; l++) parts.push(u32(levels[l]?.start ?? 1));
    this.info.push({ tag: HWPTAG.NUMBERING, level: 0, data: Buffer.concat(parts) });
    return ++this.counts.numberings;
  }

  /** Adds a bullet; returns its id, counted from 1. */
  bullet(char: string): number {
    const data = Buffer.alloc(22);
    data.writeUInt32LE(0x0c, 0);
    data.writeUInt16LE(char.charCodeAt(0), 12);
    this.info.push({ tag: HWPTAG.BULLET, level: 0, data });
    return ++this.counts.bullets;
  }

  /** Adds a paragraph style; returns its id. */
  style(name: string, englishName = '', paraShape = 0): number {
    const tail = Buffer.alloc(10);
    tail.writeUInt16LE(0x0412, 2);
    tail.writeUInt16LE(paraShape, 4);
    this.info.push({ tag: HWPTAG.STYLE, level: 0, data: Buffer.concat([counted(name), counted(englishName), tail]) });
    return this.counts.styles++;
  }

  /**
   * Adds an OLE object's BinData item holding `data` (see `chartStorage`), stored deflated (or, with
   * `asIs`, as given) as `BinData/BIN%04X.OLE` under `storageId` (by default its own number);
   * returns the item's number, counted from 1, which an `ole` piece names.
   */
  oleData(data: Buffer, { storageId = this.counts.binData + 1, asIs = false } = {}): number {
    const attributes = 0x0100 | 2; // accessed, STORAGE
    this.info.push({
      tag: HWPTAG.BIN_DATA,
      level: 0,
      data: Buffer.concat([u16(attributes), u16(storageId), counted('OLE')]),
    });
    this.binStreams.set(storageId, asIs ? data : deflateRawSync(data));
    return ++this.counts.binData;
  }

  /** Adds a paragraph to the current section. */
  paragraph(pieces: Piece[] | string, options: Omit<ParagraphSpec, 'pieces'> = {}): this {
    this.sections[this.sections.length - 1].push({
      pieces: typeof pieces === 'string' ? [{ text: pieces }] : pieces,
      ...options,
    });
    return this;
  }

  /** Starts another body section. */
  section(): this {
    this.sections.push([]);
    return this;
  }

  /** The document as a compressed HWP 5 compound file. */
  build(): Buffer {
    const streams: Record<string, Buffer> = { '/DocInfo': deflateRawSync(encodeRecords(this.info)) };
    for (const [index, paragraphs] of this.sections.entries()) {
      const records: Record_[] = [];
      for (const [i, paragraph] of paragraphs.entries()) paragraphRecords(paragraph, 0, records, i === 0);
      streams[`/BodyText/Section${index}`] = deflateRawSync(encodeRecords(records));
    }
    for (const [id, data] of this.binStreams) {
      streams[`/BinData/BIN${id.toString(16).toUpperCase().padStart(4, '0')}.OLE`] = data;
    }
    return hwpCompoundFile(streams);
  }
}

/** An HWP 5 compound file marked compressed: its FileHeader, then `streams` (by path) as given. */
export function hwpCompoundFile(streams: Record<string, Buffer>): Buffer {
  const header = Buffer.alloc(256);
  header.write('HWP Document File', 0, 'latin1');
  header.writeUInt32LE(0x05000300, 32);
  header.writeUInt32LE(1, 36); // compressed
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, '/FileHeader', header);
  for (const [path, data] of Object.entries(streams)) CFB.utils.cfb_add(container, path, data);
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

function paragraphRecords(paragraph: ParagraphSpec, level: number, out: Record_[], first = false): void {
  const units: number[] = [];
  const runs: [number, number][] = [];
  const controls: Record_[][] = [];
  const shapeAt = (shape: number): void => {
    if (runs.length === 0 || runs[runs.length - 1][1] !== shape) runs.push([units.length, shape]);
  };
  const control = (code: number, id: string, records: Record_[]): void => {
    shapeAt(0);
    const number = id4(id);
    units.push(code, number & 0xffff, number >>> 16, 0, 0, 0, 0, code);
    controls.push(records);
  };
  const child = level + 1;
  const pieces = [...paragraph.pieces];
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k];
    if ('text' in piece && !('link' in piece) && !('field' in piece)) {
      shapeAt(piece.charShape ?? 0);
      for (let i = 0; i < piece.text.length; i++) units.push(piece.text.charCodeAt(i));
    } else if ('lineBreak' in piece) {
      units.push(10);
    } else if ('nonBreakingSpace' in piece) {
      units.push(30);
    } else if ('tab' in piece) {
      units.push(9, 0, 0, 0, 0, 0, 0, 9);
    } else if ('table' in piece) {
      control(CONTROL_CHAR.object, 'tbl ', tableRecords(piece.table, child));
    } else if ('note' in piece) {
      const id = piece.note === 'footnote' ? 'fn  ' : 'en  ';
      control(CONTROL_CHAR.note, id, [ctrl(id, child, Buffer.alloc(12)), ...listRecords(piece.paragraphs, child + 1)]);
    } else if ('header' in piece || 'footer' in piece) {
      const id = 'header' in piece ? 'head' : 'foot';
      const paragraphs = 'header' in piece ? piece.header : piece.footer;
      control(CONTROL_CHAR.headerFooter, id, [ctrl(id, child, u32(0)), ...listRecords(paragraphs, child + 1)]);
    } else if ('link' in piece || 'field' in piece) {
      const command = 'link' in piece ? `${piece.link.replace(/:/g, '\\:')};1;0;0;` : '';
      const id = 'link' in piece ? '%hlk' : piece.field;
      control(CONTROL_CHAR.field, id, [
        ctrl(id, child, Buffer.concat([u32(0), Buffer.alloc(1), counted(command), u32(1)])),
      ]);
      for (let i = 0; i < piece.text.length; i++) units.push(piece.text.charCodeAt(i));
      if ('link' in piece && piece.open) pieces.splice(k + 1, 0, ...piece.open);
      else units.push(FIELD_END, 0, 0, 0, 0, 0, 0, FIELD_END);
    } else if ('equation' in piece) {
      const eqedit = Buffer.concat([u32(0), counted(piece.equation), u32(1000), u32(0), u16(0)]);
      control(CONTROL_CHAR.object, 'eqed', [
        ctrl('eqed', child, objectCommon('')),
        { tag: HWPTAG.EQEDIT, level: child + 1, data: eqedit },
      ]);
    } else if ('textBox' in piece) {
      control(CONTROL_CHAR.object, 'gso ', [
        ctrl('gso ', child, objectCommon('')),
        { tag: HWPTAG.SHAPE_COMPONENT, level: child + 1, data: Buffer.concat([u32(id4('$rec')), u32(id4('$rec'))]) },
        ...listRecords(piece.textBox, child + 2),
        { tag: 0x4f, level: child + 2, data: Buffer.alloc(33) }, // SHAPE_COMPONENT_RECTANGLE
      ]);
    } else if ('picture' in piece) {
      const caption = piece.picture.caption;
      control(CONTROL_CHAR.object, 'gso ', [
        ctrl('gso ', child, objectCommon(piece.picture.description)),
        ...(caption ? listRecords(caption.paragraphs, child + 1, captionHeader(caption.side)) : []),
        { tag: HWPTAG.SHAPE_COMPONENT, level: child + 1, data: Buffer.concat([u32(id4('$pic')), u32(id4('$pic'))]) },
        { tag: HWPTAG.SHAPE_COMPONENT_PICTURE, level: child + 2, data: Buffer.alloc(82) },
      ]);
    } else if ('ole' in piece) {
      const caption = piece.caption;
      const ole = Buffer.alloc(26); // attributes, extent, BinData item, border color, width and attributes
      ole.writeUInt16LE(piece.ole, 12);
      control(CONTROL_CHAR.object, 'gso ', [
        ctrl('gso ', child, objectCommon('')),
        ...(caption ? listRecords(caption.paragraphs, child + 1, captionHeader(caption.side)) : []),
        { tag: HWPTAG.SHAPE_COMPONENT, level: child + 1, data: Buffer.concat([u32(id4('$ole')), u32(id4('$ole'))]) },
        { tag: HWPTAG.SHAPE_COMPONENT_OLE, level: child + 2, data: ole },
      ]);
    } else if ('autoNumber' in piece) {
      control(CONTROL_CHAR.autoNumber, 'atno', [
        ctrl('atno', child, Buffer.concat([u32(piece.autoNumber), u16(piece.value)])),
      ]);
    } else if ('sectionDefinition' in piece) {
      const data = Buffer.alloc(34);
      data.writeUInt16LE(piece.sectionDefinition.outlineNumbering, 14);
      control(CONTROL_CHAR.section, 'secd', [ctrl('secd', child, data)]);
    } else {
      control(CONTROL_CHAR.bookmark, 'bokm', [ctrl('bokm', child, Buffer.alloc(0))]);
    }
  }
  units.push(13);
  if (runs.length === 0) runs.push([0, 0]);

  const header = Buffer.alloc(22);
  header.writeUInt32LE(units.length, 0);
  header.writeUInt16LE(paragraph.paraShape ?? 0, 8);
  header.writeUInt8(paragraph.style ?? 0, 10);
  header.writeUInt8((first ? 0x01 : 0) | (paragraph.pageBreak ? 0x04 : 0), 11);
  header.writeUInt16LE(runs.length, 12);
  out.push({ tag: HWPTAG.PARA_HEADER, level, data: header });
  const text = Buffer.alloc(units.length * 2);
  units.forEach((unit, i) => text.writeUInt16LE(unit, i * 2));
  out.push({ tag: HWPTAG.PARA_TEXT, level: level + 1, data: text });
  out.push({
    tag: HWPTAG.PARA_CHAR_SHAPE,
    level: level + 1,
    data: Buffer.concat(runs.flatMap(([p, s]) => [u32(p), u32(s)])),
  });
  for (const records of controls) out.push(...records);
}

/**
 * An OLE chart's BinData content as Hangul 2018 and later store it: a compound file with the
 * chart part as its `OOXMLChartContents` stream (and a legacy `Contents` stream), after the
 * compound file's length as four bytes.
 */
export function chartStorage(xml: string | Buffer): Buffer {
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, '/OOXMLChartContents', typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml);
  CFB.utils.cfb_add(container, '/Contents', Buffer.alloc(64));
  const file = Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
  return Buffer.concat([u32(file.length), file]);
}

function tableRecords(table: Extract<Piece, { table: unknown }>['table'], level: number): Record_[] {
  const records: Record_[] = [ctrl('tbl ', level, objectCommon(''))];
  if (table.caption)
    records.push(...listRecords(table.caption.paragraphs, level + 1, captionHeader(table.caption.side)));
  const body = Buffer.alloc(22 + 2 * table.rows);
  body.writeUInt16LE(table.rows, 4);
  body.writeUInt16LE(table.cols, 6);
  records.push({ tag: HWPTAG.TABLE, level: level + 1, data: body });
  for (const cell of table.cells) {
    const fields = Buffer.alloc(26);
    fields.writeUInt16LE(cell.col, 0);
    fields.writeUInt16LE(cell.row, 2);
    fields.writeUInt16LE(cell.colSpan ?? 1, 4);
    fields.writeUInt16LE(cell.rowSpan ?? 1, 6);
    records.push(...listRecords(cell.paragraphs, level + 1, fields));
  }
  return records;
}

/** A caption list's fields after the list header: side, width, gap and the object's width. */
function captionHeader(side: CaptionSide): Buffer {
  const data = Buffer.alloc(14);
  data.writeUInt32LE(CAPTION_SIDES[side], 0);
  data.writeUInt32LE(8504, 4);
  data.writeUInt16LE(850, 8);
  return data;
}

/** A LIST_HEADER (paragraph count, attributes, then `fields`) and its paragraphs, all at `level`. */
function listRecords(paragraphs: ParagraphSpec[], level: number, fields: Buffer = Buffer.alloc(0)): Record_[] {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(paragraphs.length, 0);
  const records: Record_[] = [{ tag: HWPTAG.LIST_HEADER, level, data: Buffer.concat([head, fields]) }];
  for (const paragraph of paragraphs) paragraphRecords(paragraph, level, records);
  return records;
}

/** An object's common properties after its control id, ending with its description. */
function objectCommon(description: string): Buffer {
  return Buffer.concat([Buffer.alloc(40), counted(description)]);
}

function ctrl(id: string, level: number, rest: Buffer): Record_ {
  return { tag: HWPTAG.CTRL_HEADER, level, data: Buffer.concat([u32(id4(id)), rest]) };
}

function id4(id: string): number {
  return ((id.charCodeAt(0) << 24) | (id.charCodeAt(1) << 16) | (id.charCodeAt(2) << 8) | id.charCodeAt(3)) >>> 0;
}

function encodeRecords(records: Record_[]): Buffer {
  return Buffer.concat(
    records.map(({ tag, level, data }) => {
      const long = data.length >= 0xfff;
      const head = u32((tag | (level << 10) | ((long ? 0xfff : data.length) << 20)) >>> 0);
      return Buffer.concat(long ? [head, u32(data.length), data] : [head, data]);
    }),
  );
}

function counted(text: string): Buffer {
  return Buffer.concat([u16(text.length), Buffer.from(text, 'utf16le')]);
}

function u16(value: number): Buffer {
  const data = Buffer.alloc(2);
  data.writeUInt16LE(value, 0);
  return data;
}

function u32(value: number): Buffer {
  const data = Buffer.alloc(4);
  data.writeUInt32LE(value >>> 0, 0);
  return data;
}
