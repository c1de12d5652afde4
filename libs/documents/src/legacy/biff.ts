/**
 * Just enough of Excel's BIFF5/BIFF8 record stream (the `Workbook` or `Book` stream of an .xls,
 * [MS-XLS]) for intake: whether the workbook is encrypted, which sheets it lists and whether a
 * worksheet holds any value. Every record is a 16-bit type, a 16-bit length and its data; record
 * headers stay readable even in an encrypted workbook.
 */

const BOF = 0x0809;
const EOF = 0x000a;
const FILEPASS = 0x002f;
const BOUNDSHEET = 0x0085;

/** Records that put a value in a cell (blank and formatting-only records are not among them). */
const VALUE_RECORDS = new Set([
  0x0006, // FORMULA
  0x00bd, // MULRK
  0x00d6, // RSTRING
  0x00fd, // LABELSST
  0x0203, // NUMBER
  0x0204, // LABEL
  0x0205, // BOOLERR
  0x027e, // RK
]);

/** The sheet types of a BOUNDSHEET record (`dt`). */
export type SheetType = 'worksheet' | 'macro' | 'chart' | 'module' | 'other';

const SHEET_TYPES: Record<number, SheetType> = { 0: 'worksheet', 1: 'macro', 2: 'chart', 6: 'module' };

export interface BiffSheet {
  type: SheetType;
  /** Where the sheet's own substream (its BOF record) starts in the stream. */
  offset: number;
}

export interface BiffWorkbook {
  /** A FILEPASS record: the workbook is encrypted (or obfuscated) with a password. */
  encrypted: boolean;
  sheets: BiffSheet[];
}

interface BiffRecord {
  type: number;
  data: Buffer;
}

/** The records from `start` up to and including the substream's EOF (or the end of the stream). */
function* substream(stream: Buffer, start: number): Generator<BiffRecord> {
  let at = start;
  while (at + 4 <= stream.length) {
    const type = stream.readUInt16LE(at);
    const length = stream.readUInt16LE(at + 2);
    const data = stream.subarray(at + 4, Math.min(stream.length, at + 4 + length));
    yield { type, data };
    if (type === EOF) return;
    at += 4 + length;
  }
}

/** The workbook globals: the encryption flag and the sheet list. */
export function readBiffWorkbook(stream: Buffer): BiffWorkbook {
  const workbook: BiffWorkbook = { encrypted: false, sheets: [] };
  for (const record of substream(stream, 0)) {
    if (record.type === FILEPASS) workbook.encrypted = true;
    else if (record.type === BOUNDSHEET && record.data.length >= 6) {
      workbook.sheets.push({ type: SHEET_TYPES[record.data[5]] ?? 'other', offset: record.data.readUInt32LE(0) });
    }
  }
  return workbook;
}

/** Whether the sheet whose substream starts at `offset` puts a value in any cell. */
export function sheetHasValues(stream: Buffer, offset: number): boolean {
  if (offset + 4 > stream.length || stream.readUInt16LE(offset) !== BOF) return false;
  for (const record of substream(stream, offset)) if (VALUE_RECORDS.has(record.type)) return true;
  return false;
}
