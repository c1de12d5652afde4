import CFB from 'cfb';

/**
 * Office 97–2003 test files built byte by byte: a compound file holding the given streams, and
 * just enough of each format's main stream (Word's FIB, Excel's BIFF records, PowerPoint's
 * records, property sets) for intake to read. Office would not open them; intake does not need it to.
 */

/** A compound file with the given streams and storages (`Macros/VBA/dir` makes both storages). */
export function compoundFile(streams: Record<string, Buffer>): Buffer {
  const container = CFB.utils.cfb_new();
  for (const [name, content] of Object.entries(streams)) CFB.utils.cfb_add(container, `/${name}`, content);
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

/** An OLE property set with one section of 32-bit integer properties. */
export function propertySet(values: Record<number, number>): Buffer {
  const entries = Object.entries(values).map(([id, value]) => [Number(id), value]);
  const header = Buffer.alloc(48);
  header.writeUInt16LE(0xfffe, 0);
  header.writeUInt32LE(1, 24);
  header.writeUInt32LE(48, 44);
  const section = Buffer.alloc(8 + entries.length * 16);
  section.writeUInt32LE(section.length, 0);
  section.writeUInt32LE(entries.length, 4);
  entries.forEach(([id, value], i) => {
    const at = 8 + entries.length * 8 + i * 8;
    section.writeUInt32LE(id, 8 + i * 8);
    section.writeUInt32LE(at, 12 + i * 8);
    section.writeUInt16LE(3, at); // VT_I4
    section.writeInt32LE(value, at + 4);
  });
  return Buffer.concat([header, section]);
}

/** A Word `WordDocument` stream: its FIB, with the encryption flag and the main text's length. */
export function wordDocument(options: { encrypted?: boolean; characters?: number } = {}): Buffer {
  const fib = Buffer.alloc(512);
  fib.writeUInt16LE(0xa5ec, 0);
  fib.writeUInt16LE(0x00c1, 2);
  fib.writeUInt16LE(options.encrypted ? 0x0100 : 0, 0x0a);
  fib.writeUInt16LE(14, 32); // csw
  fib.writeUInt16LE(22, 62); // cslw
  fib.writeInt32LE(options.characters ?? 0, 76); // ccpText
  return fib;
}

function biffRecord(type: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16LE(type, 0);
  head.writeUInt16LE(data.length, 2);
  return Buffer.concat([head, data]);
}

export interface BiffSheetSpec {
  /** BOUNDSHEET `dt`: 0 worksheet, 1 Excel 4.0 macro sheet, 2 chart, 6 module. */
  type?: number;
  /** Whether a cell holds a number. */
  hasValue: boolean;
}

/** An Excel `Workbook` stream: globals (BOF, an optional FILEPASS, one BOUNDSHEET per sheet, EOF), then each sheet. */
export function biffWorkbook(sheets: BiffSheetSpec[], options: { encrypted?: boolean } = {}): Buffer {
  const bof = biffRecord(0x0809, Buffer.alloc(16));
  const eof = biffRecord(0x000a);
  const filepass = options.encrypted ? [biffRecord(0x002f, Buffer.alloc(54))] : [];
  const bodies = sheets.map((sheet) =>
    Buffer.concat([bof, ...(sheet.hasValue ? [biffRecord(0x0203, Buffer.alloc(14))] : []), eof]),
  );
  const boundsheet = (offset: number, type: number, i: number): Buffer => {
    const name = Buffer.from(`Sheet${i + 1}`, 'latin1');
    const data = Buffer.concat([Buffer.alloc(6), Buffer.from([name.length, 0]), name]);
    data.writeUInt32LE(offset, 0);
    data[5] = type;
    return biffRecord(0x0085, data);
  };
  const globalsLength =
    bof.length +
    filepass.reduce((n, b) => n + b.length, 0) +
    sheets.reduce((n, _, i) => n + boundsheet(0, 0, i).length, 0) +
    eof.length;
  let offset = globalsLength;
  const records = sheets.map((sheet, i) => {
    const record = boundsheet(offset, sheet.type ?? 0, i);
    offset += bodies[i].length;
    return record;
  });
  return Buffer.concat([bof, ...filepass, ...records, eof, ...bodies]);
}

function pptRecord(version: number, instance: number, type: number, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(version | (instance << 4), 0);
  head.writeUInt16LE(type, 2);
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data]);
}

/** A `PowerPoint Document` stream: a DocumentContainer listing `slides` slides, with a VBAInfo record when asked. */
export function powerPointDocument(slides: number, options: { vba?: boolean } = {}): Buffer {
  const persist = Array.from({ length: slides }, () => pptRecord(0, 0, 0x03f3, Buffer.alloc(20)));
  const list = pptRecord(0xf, 0, 0x0ff0, Buffer.concat(persist));
  const vbaAtom = Buffer.alloc(12);
  vbaAtom.writeUInt32LE(1, 4); // fHasMacros
  const vba = options.vba ? [pptRecord(0xf, 0, 0x03ff, pptRecord(0x2, 0, 0x0400, vbaAtom))] : [];
  return pptRecord(0xf, 0, 0x03e8, Buffer.concat([list, ...vba]));
}

/** A `Current User` stream whose CurrentUserAtom says whether the presentation is encrypted. */
export function currentUser(encrypted: boolean): Buffer {
  const atom = Buffer.alloc(20);
  atom.writeUInt32LE(20, 0);
  atom.writeUInt32LE(encrypted ? 0xf3d1c4df : 0xe391c05f, 4);
  return pptRecord(0, 0, 0x0ff6, atom);
}
