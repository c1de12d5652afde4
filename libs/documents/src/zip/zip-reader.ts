import iconv from 'iconv-lite';
import { basename } from 'node:path';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { DecompressionBudget } from '../decompression';

export interface ZipEntryInfo {
  /** The entry name, decoded: UTF-8 when flagged or valid, else CP949 (Korean Windows zips). */
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  isDirectory: boolean;
  /** Unix file type bits from the external attributes (symlinks, devices), 0 when absent. */
  unixType: number;
  entry: Entry;
}

const UTF8_FLAG = 0x800;

/** Decodes a zip entry name the way the archiver most likely wrote it. */
export function decodeEntryName(raw: Buffer, flags: number): string {
  if (flags & UTF8_FLAG) return raw.toString('utf8');
  const asUtf8 = new TextDecoder('utf-8', { fatal: false }).decode(raw);
  if (!asUtf8.includes('\uFFFD')) return asUtf8; // ASCII, or UTF-8 written without the flag
  return iconv.decode(raw, 'cp949');
}

/**
 * A zip opened for reading, entries listed up front. Entries are read one at a time, each held to
 * the file's decompression budget (ratio, total) and to the caller's ceiling for that part.
 */
export class ZipReader {
  private constructor(
    private readonly zip: ZipFile,
    readonly entries: ZipEntryInfo[],
    readonly budget: DecompressionBudget,
  ) {}

  /** Opens `path`; its entries draw on `budget` (by default the default limits, named after the file). */
  static open(path: string, budget = new DecompressionBudget(basename(path))): Promise<ZipReader> {
    return new Promise((resolve, reject) => {
      yauzl.open(
        path,
        { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false },
        (error, zip) => {
          if (error || !zip) return reject(error ?? new Error('cannot open zip'));
          const entries: ZipEntryInfo[] = [];
          zip.on('entry', (entry: Entry) => {
            const raw = entry.fileName as unknown as Buffer;
            const name = decodeEntryName(raw, entry.generalPurposeBitFlag);
            entries.push({
              name,
              compressedSize: entry.compressedSize,
              uncompressedSize: entry.uncompressedSize,
              isDirectory: name.endsWith('/'),
              unixType: (entry.externalFileAttributes >>> 16) & 0o170000,
              entry,
            });
            zip.readEntry();
          });
          zip.on('end', () => resolve(new ZipReader(zip, entries, budget)));
          zip.on('error', (e: Error) => {
            zip.close();
            reject(e);
          });
          zip.readEntry();
        },
      );
    });
  }

  find(name: string): ZipEntryInfo | undefined {
    return this.entries.find((e) => e.name === name);
  }

  /**
   * The whole entry, inflated no further than its cap: `ceiling`, the ratio limit and what is
   * left of the file's total. Past the cap it throws the budget's 413 naming the file and entry.
   */
  async read(entry: ZipEntryInfo, ceiling: number): Promise<Buffer> {
    const cap = this.budget.capFor(entry.compressedSize, ceiling);
    const refusal = () => this.budget.refusal(entry.name, entry.compressedSize, ceiling);
    if (entry.uncompressedSize > cap) throw refusal();
    const stream = await this.openStream(entry);
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > cap) {
        stream.destroy();
        throw refusal();
      }
      chunks.push(chunk);
    }
    this.budget.charge(total);
    return Buffer.concat(chunks);
  }

  async readText(name: string, ceiling: number): Promise<string | undefined> {
    const entry = this.find(name);
    return entry ? (await this.read(entry, ceiling)).toString('utf8') : undefined;
  }

  openStream(entry: ZipEntryInfo): Promise<NodeJS.ReadableStream & { destroy(): void }> {
    return new Promise((resolve, reject) => {
      this.zip.openReadStream(entry.entry, (error, stream) =>
        error || !stream ? reject(error ?? new Error('cannot read entry')) : resolve(stream),
      );
    });
  }

  close(): void {
    this.zip.close();
  }
}

/** Opens, uses and always closes a zip. */
export async function withZip<T>(
  path: string,
  use: (zip: ZipReader) => Promise<T>,
  budget?: DecompressionBudget,
): Promise<T> {
  const zip = await ZipReader.open(path, budget);
  try {
    return await use(zip);
  } finally {
    zip.close();
  }
}
