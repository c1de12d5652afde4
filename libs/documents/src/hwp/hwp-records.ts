import { HWPTAG, type HwpRecord } from './hwp-file';

/*
 * The shape of an HWP body stream: records nested by level, the paragraph lists (cells, captions,
 * notes, text boxes) among them, and the little-endian readers their fields are decoded with.
 */

/** A record and the records nested under it (those that follow it one level deeper). */
export interface RecordNode {
  record: HwpRecord;
  children: RecordNode[];
}

export function recordTree(records: HwpRecord[]): RecordNode[] {
  const roots: RecordNode[] = [];
  const open: RecordNode[] = [];
  for (const record of records) {
    const node: RecordNode = { record, children: [] };
    while (open.length > 0 && open[open.length - 1].record.level >= record.level) open.pop();
    (open.length > 0 ? open[open.length - 1].children : roots).push(node);
    open.push(node);
  }
  return roots;
}

/** A paragraph list (cell, caption, note, header, text box): its LIST_HEADER and the paragraphs after it. */
export interface ParagraphList {
  header: Buffer;
  paragraphs: RecordNode[];
}

/** The paragraph lists among sibling records, each a LIST_HEADER followed by its paragraphs. */
export function paragraphLists(siblings: RecordNode[]): ParagraphList[] {
  const lists: ParagraphList[] = [];
  let current: ParagraphList | undefined;
  for (const node of siblings) {
    if (node.record.tag === HWPTAG.LIST_HEADER) {
      current = { header: node.record.data, paragraphs: [] };
      lists.push(current);
    } else if (node.record.tag === HWPTAG.PARA_HEADER) {
      current?.paragraphs.push(node);
    } else {
      current = undefined;
    }
  }
  return lists;
}

/** Readers that give 0 or '' past a record's end: older files write shorter records. */
export const u8 = (data: Buffer, offset: number): number => (offset + 1 <= data.length ? data.readUInt8(offset) : 0);
export const u16 = (data: Buffer, offset: number): number =>
  offset + 2 <= data.length ? data.readUInt16LE(offset) : 0;
export const u32 = (data: Buffer, offset: number): number =>
  offset + 4 <= data.length ? data.readUInt32LE(offset) : 0;

/** A WORD-counted UTF-16 string at `offset`, and the offset after it. */
export function counted(data: Buffer, offset: number): [string, number] {
  const length = u16(data, offset);
  const end = Math.min(data.length, offset + 2 + length * 2);
  const bytes = data.subarray(offset + 2, end - ((end - offset - 2) % 2));
  return [bytes.toString('utf16le'), offset + 2 + length * 2];
}

/** A control's four-character id (`tbl `, `gso `, `%hlk`), stored as a little-endian number. */
export function controlId(data: Buffer): string {
  const id = u32(data, 0);
  return String.fromCharCode(id >>> 24, (id >>> 16) & 0xff, (id >>> 8) & 0xff, id & 0xff);
}
