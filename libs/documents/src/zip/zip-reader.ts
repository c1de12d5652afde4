import iconv from 'iconv-lite';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

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

/** A zip opened for reading, entries listed up front; entries are read one at a time with a byte cap. */
export class ZipReader {
  private constructor(
    private readonly zip: ZipFile,
    readonly entries: ZipEntryInfo[],
  ) {}

  static open(path: string): Promise<ZipReader> {
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
          zip.on('end', () => resolve(new ZipReader(zip, entries)));
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

  /** The whole entry, refusing to inflate more than `maxBytes`. */
  async read(entry: ZipEntryInfo, maxBytes: number): Promise<Buffer> {
    const stream = await this.openStream(entry);
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) {
        stream.destroy();
        throw new Error(`entry ${entry.name} is larger than ${maxBytes} bytes`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  async readText(name: string, maxBytes = 64 * 1024 * 1024): Promise<string | undefined> {
    const entry = this.find(name);
    return entry ? (await this.read(entry, maxBytes)).toString('utf8') : undefined;
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
export async function withZip<T>(path: string, use: (zip: ZipReader) => Promise<T>): Promise<T> {
  const zip = await ZipReader.open(path);
  try {
    return await use(zip);
  } finally {
    zip.close();
  }
}
