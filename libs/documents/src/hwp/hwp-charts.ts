import { DomainError } from '@docconv/contracts';
import CFB from 'cfb';
import { readChart, type Chart } from '../office/charts';
import { parseXml } from '../office/ooxml';
import { HWPTAG, type HwpFile, type HwpRecord } from './hwp-file';
import { u16 } from './hwp-records';

/** What every compound file starts with. */
const CFB_SIGNATURE = Buffer.from('d0cf11e0a1b11ae1', 'hex');

/** BIN_DATA item types (bits 0–3 of its attributes) that are stored in the file, and compression modes (bits 4–5). */
const EMBEDDING = 1;
const STORAGE = 2;
const ALWAYS_COMPRESSED = 1;
const NEVER_COMPRESSED = 2;

/**
 * Charts of Hangul 2018 and later, which stores each as an OLE object: its BinData item is a
 * compound file (after a four-byte length) whose `OOXMLChartContents` stream is an OOXML chart
 * part with its cached data, written as the Office extractors write charts. An object whose item
 * holds no such stream (an older file's binary chart, any other OLE object), or that cannot be
 * read, has no chart; only going past the file's decompression limits is an error.
 */
export class HwpCharts {
  /** The BIN_DATA items in order (an object names its item counted from 1): stream id, compression. */
  private readonly items: { storageId: number; compressed: boolean | undefined }[] = [];
  private readonly read = new Map<number, Chart | undefined>();

  constructor(
    private readonly file: HwpFile,
    docInfo: HwpRecord[],
  ) {
    for (const { tag, data } of docInfo) {
      if (tag !== HWPTAG.BIN_DATA) continue;
      const attributes = u16(data, 0);
      const type = attributes & 0xf;
      const mode = (attributes >>> 4) & 0x3;
      this.items.push({
        storageId: type === EMBEDDING || type === STORAGE ? u16(data, 2) : 0,
        compressed: mode === ALWAYS_COMPRESSED ? true : mode === NEVER_COMPRESSED ? false : undefined,
      });
    }
  }

  /** The chart in the OLE object whose BinData item is `binDataId` (counted from 1). */
  chart(binDataId: number): Chart | undefined {
    if (!this.read.has(binDataId)) this.read.set(binDataId, this.load(binDataId));
    return this.read.get(binDataId);
  }

  private load(binDataId: number): Chart | undefined {
    const item = this.items[binDataId - 1];
    if (!item || item.storageId === 0) return undefined;
    try {
      const data = this.file.binData(item.storageId, item.compressed);
      if (!data) return undefined;
      const start = [0, 4].find((at) => data.subarray(at, at + 8).equals(CFB_SIGNATURE));
      if (start === undefined) return undefined;
      const contents = CFB.find(CFB.read(data.subarray(start), { type: 'buffer' }), 'OOXMLChartContents');
      if (!contents?.content || contents.content.length === 0) return undefined;
      const name = `BinData item ${binDataId} (OOXMLChartContents)`;
      const stored = Buffer.from(contents.content as Uint8Array);
      const xml = xmlText(isXml(stored) ? stored : this.file.inflate(name, stored));
      return readChart(parseXml(xml, name));
    } catch (error) {
      if (error instanceof DomainError && error.code === 'payload_too_large') throw error;
      return undefined;
    }
  }
}

/** Whether bytes open as XML text: `<`, after a UTF-8 or UTF-16 byte order mark and white space. */
function isXml(bytes: Buffer): boolean {
  return /^\s*</.test(xmlText(bytes.subarray(0, 64)));
}

function xmlText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}
