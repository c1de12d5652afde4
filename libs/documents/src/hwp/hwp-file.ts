import { DomainError } from '@docconv/contracts';
import CFB from 'cfb';
import { inflateRawSync } from 'node:zlib';

/** HWP 5 record tags (HWPTAG_BEGIN = 0x10). */
export const HWPTAG = { PARA_HEADER: 0x42, PARA_TEXT: 0x43, PARA_LINE_SEG: 0x45 } as const;

export interface HwpRecord {
  tag: number;
  level: number;
  data: Buffer;
}

/** An HWP 5 compound file: its header flags and the records of each body section. */
export class HwpFile {
  private constructor(
    private readonly container: CFB.CFB$Container,
    private readonly compressed: boolean,
  ) {}

  static open(path: string, displayName: string): HwpFile {
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
    if (flags & 0b110) {
      throw new DomainError(
        'encrypted_document',
        `${displayName} is password-protected or distribution-locked. Save an unprotected copy in Hangul and upload that.`,
      );
    }
    return new HwpFile(container, (flags & 1) === 1);
  }

  /** The body sections in order, each as its list of records. */
  sections(): HwpRecord[][] {
    const names = this.container.FullPaths.filter((p) => /\/BodyText\/Section\d+$/.test(p)).sort(
      (a, b) => Number(/(\d+)$/.exec(a)![1]) - Number(/(\d+)$/.exec(b)![1]),
    );
    return names.map((name) => {
      const raw = Buffer.from(CFB.find(this.container, name)!.content as Uint8Array);
      return parseRecords(this.compressed ? inflateRawSync(raw) : raw);
    });
  }
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
