import { DomainError } from '@docconv/contracts';
import CFB from 'cfb';
import { closeSync, openSync, readSync } from 'node:fs';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { DecompressionBudget, DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';

/** HWP 5 record tags (HWPTAG_BEGIN = 0x10): the document info's tables, then the body's records. */
export const HWPTAG = {
  ID_MAPPINGS: 0x11,
  BIN_DATA: 0x12,
  CHAR_SHAPE: 0x15,
  NUMBERING: 0x17,
  BULLET: 0x18,
  PARA_SHAPE: 0x19,
  STYLE: 0x1a,
  PARA_HEADER: 0x42,
  PARA_TEXT: 0x43,
  PARA_CHAR_SHAPE: 0x44,
  PARA_LINE_SEG: 0x45,
  CTRL_HEADER: 0x47,
  LIST_HEADER: 0x48,
  SHAPE_COMPONENT: 0x4c,
  TABLE: 0x4d,
  SHAPE_COMPONENT_OLE: 0x54,
  SHAPE_COMPONENT_PICTURE: 0x55,
  SHAPE_COMPONENT_CONTAINER: 0x56,
  EQEDIT: 0x58,
  SHAPE_COMPONENT_TEXTART: 0x5a,
} as const;

/** What an HWP 3 file (Hangul 97 and earlier, not a compound file) starts with. */
const HWP3_SIGNATURE = 'HWP Document File V3.00';

export interface HwpRecord {
  tag: number;
  level: number;
  data: Buffer;
}

/** FileHeader property bits: the body is encrypted with a password, or locked as a distribution document. */
const PASSWORD_FLAG = 0b10;
const DISTRIBUTION_FLAG = 0b100;

/** The most of one stream we inflate: a body section this large holds thousands of pages. */
const MAX_STREAM_BYTES = 128 * 1024 * 1024;

/** Streams that are never compressed: the signature and the summary and preview Hangul writes. */
// eslint-disable-next-line no-control-regex
const PLAIN_STREAMS = /^\/(FileHeader|\x05HwpSummaryInformation|PrvText|PrvImage)$/;

/**
 * An HWP 5 compound file: its header flags and the records of each body section. Every stream it
 * inflates is held to the file's decompression budget.
 */
export class HwpFile {
  private constructor(
    private readonly container: CFB.CFB$Container,
    private readonly compressed: boolean,
    private readonly budget: DecompressionBudget,
  ) {}

  static open(path: string, displayName: string, limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS): HwpFile {
    if (startsWith(path, HWP3_SIGNATURE)) {
      throw new DomainError(
        'unsupported_format',
        `${displayName} is an HWP 3 document (Hangul 97 or earlier), which we cannot read. Open it in Hangul, save it as HWP or HWPX and upload that.`,
      );
    }
    let container: CFB.CFB$Container;
    try {
      container = CFB.read(path, { type: 'file' });
    } catch {
      throw new DomainError(
        'unsupported_format',
        `${displayName} is a damaged HWP file. Check that it opens in Hangul.`,
      );
    }
    const header = CFB.find(container, '/FileHeader');
    if (!header) throw new DomainError('unsupported_format', `${displayName} is not an HWP 5 document.`);
    const flags = Buffer.from(header.content as Uint8Array).readUInt32LE(36);
    if (flags & PASSWORD_FLAG) {
      throw new DomainError(
        'encrypted_document',
        `${displayName} is password-protected. Open it in Hangul, save a copy without the password and upload that.`,
      );
    }
    if (flags & DISTRIBUTION_FLAG) {
      throw new DomainError(
        'encrypted_document',
        `${displayName} is a distribution document (배포용 문서), which its author locked against copying. Ask the author for an editable HWP or HWPX copy and upload that.`,
      );
    }
    return new HwpFile(container, (flags & 1) === 1, new DecompressionBudget(displayName, limits));
  }

  /** The body sections in order, each as its list of records. */
  sections(): HwpRecord[][] {
    const names = this.container.FullPaths.filter((p) => /\/BodyText\/Section\d+$/.test(p)).sort(
      (a, b) => Number(/(\d+)$/.exec(a)![1]) - Number(/(\d+)$/.exec(b)![1]),
    );
    return names.map((path) => {
      const raw = this.stream(path);
      return parseRecords(this.compressed ? this.inflate(streamName(path), raw) : raw);
    });
  }

  /** The document info's records: character and paragraph shapes, numberings, bullets and styles. */
  docInfo(): HwpRecord[] {
    if (!CFB.find(this.container, '/DocInfo')) return [];
    const raw = this.stream('/DocInfo');
    return parseRecords(this.compressed ? this.inflate('DocInfo', raw) : raw);
  }

  /**
   * Inflates every other compressed stream (document info, pictures, scripts) without keeping
   * it, so that a file any stream of which would expand past the limits is refused at upload.
   */
  async checkStreams(): Promise<void> {
    if (!this.compressed) return;
    for (const [index, name] of this.container.FullPaths.entries()) {
      const node = this.container.FileIndex[index];
      if (node.type !== 2 || PLAIN_STREAMS.test(`/${streamName(name)}`) || /\/BodyText\//.test(name)) continue;
      await this.measure(streamName(name), this.stream(name));
    }
  }

  /**
   * The BinData stream holding item `storageId` (`BinData/BIN0003.OLE`, whatever its extension),
   * inflated within the file's budget when `compressed`; undefined when the file has no such stream.
   */
  binData(storageId: number, compressed: boolean = this.compressed): Buffer | undefined {
    const id = storageId.toString(16).toUpperCase().padStart(4, '0');
    const path = this.container.FullPaths.find((p) => new RegExp(`/BinData/BIN${id}(\\.[^/]*)?$`, 'i').test(p));
    if (path === undefined) return undefined;
    const raw = this.stream(path);
    return compressed ? this.inflate(streamName(path), raw) : raw;
  }

  private stream(path: string): Buffer {
    return Buffer.from(CFB.find(this.container, path)!.content as Uint8Array);
  }

  /**
   * Raw-deflate data (a stream, or a part of one named `name` in messages), inflated within the
   * file's budget: past it, the budget's 413; data that does not inflate, a damaged-file refusal.
   */
  inflate(name: string, raw: Buffer): Buffer {
    const cap = this.budget.capFor(raw.length, MAX_STREAM_BYTES);
    let inflated: Buffer;
    try {
      inflated = inflateRawSync(raw, { maxOutputLength: Math.max(1, cap) });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw this.budget.refusal(name, raw.length, MAX_STREAM_BYTES);
      }
      throw new DomainError(
        'unsupported_format',
        `${this.budget.displayName} is a damaged HWP file (${name} cannot be read). Check that it opens in Hangul.`,
      );
    }
    this.budget.charge(inflated.length);
    return inflated;
  }

  /** Counts what a stream inflates to, stopping at its cap; a stream that is not deflate data counts as stored. */
  private measure(name: string, raw: Buffer): Promise<void> {
    const cap = this.budget.capFor(raw.length, MAX_STREAM_BYTES);
    return new Promise((resolve, reject) => {
      const inflater = createInflateRaw();
      let total = 0;
      inflater.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > cap) {
          inflater.destroy();
          reject(this.budget.refusal(name, raw.length, MAX_STREAM_BYTES));
        }
      });
      inflater.on('error', () => resolve());
      inflater.on('end', () => {
        this.budget.charge(total);
        resolve();
      });
      inflater.end(raw);
    });
  }
}

/** Whether the file at `path` starts with the Latin-1 text `signature`. */
function startsWith(path: string, signature: string): boolean {
  const head = Buffer.alloc(signature.length);
  let read = 0;
  try {
    const fd = openSync(path, 'r');
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
  return read === head.length && head.toString('latin1') === signature;
}

/** A stream's name as Hangul's documentation writes it: `BodyText/Section0`, without the container's root. */
function streamName(path: string): string {
  return path.replace(/^Root Entry\//, '');
}

export function parseRecords(data: Buffer): HwpRecord[] {
  const records: HwpRecord[] = [];
  let offset = 0;
  while (offset + 4 <= data.length) {
    const header = data.readUInt32LE(offset);
    offset += 4;
    let size = header >>> 20;
    if (size === 0xfff) {
      if (offset + 4 > data.length) break;
      size = data.readUInt32LE(offset);
      offset += 4;
    }
    if (offset + size > data.length) break;
    records.push({ tag: header & 0x3ff, level: (header >>> 10) & 0x3ff, data: data.subarray(offset, offset + size) });
    offset += size;
  }
  return records;
}

/**
 * Pages as Hangul laid them out when the file was saved: each section starts a page, and
 * within a section the vertical position of the top-level paragraphs' lines goes back up
 * at each new page. (Table cells have layouts of their own and are ignored.)
 */
export function countHwpPages(file: HwpFile): number {
  let pages = 0;
  for (const records of file.sections()) {
    pages +=
      1 +
      countResets(
        records.filter((r) => r.tag === HWPTAG.PARA_LINE_SEG && r.level === 1).flatMap((r) => lineTops(r.data)),
      );
  }
  return Math.max(1, pages);
}

function lineTops(data: Buffer): number[] {
  const tops: number[] = [];
  for (let i = 0; i + 36 <= data.length; i += 36) tops.push(data.readInt32LE(i + 4));
  return tops;
}

/** How many times a sequence of line positions fails to move down: each such line starts a new page. */
export function countResets(tops: number[]): number {
  let resets = 0;
  for (let i = 1; i < tops.length; i++) if (tops[i] <= tops[i - 1]) resets++;
  return resets;
}
