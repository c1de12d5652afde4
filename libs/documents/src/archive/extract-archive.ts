import { DomainError } from '@docconv/contracts';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { exceedsRatio, type DecompressionLimits } from '../decompression';
import type { ArchiveFormat } from '../kinds';
import { ZipReader } from '../zip/zip-reader';

/** An upload's limits: its files, and how far its compressed parts may expand (per entry, and in all). */
export interface ArchiveLimits extends DecompressionLimits {
  maxFiles: number;
}

/** What an upload may still take; shared by every archive in it, nested ones included. */
export interface ArchiveBudget {
  files: number;
  bytes: number;
}

export interface ExtractedEntry {
  /** Where the bytes are on disk: a numbered file in the work folder, never a name from the archive. */
  path: string;
  /** The entry's path inside the archive, for display. */
  name: string;
}

const S_IFREG = 0o100000;
const JUNK = new Set(['thumbs.db', 'desktop.ini']);

/**
 * Extracts an archive's files into `folder` under numbered names. Refuses unsafe entries
 * (absolute paths, `..`, links, devices) and stops as soon as a limit is passed; skips
 * folders, `__MACOSX` and dotfiles. The caller removes `folder` on failure.
 */
export async function extractArchive(
  archivePath: string,
  format: ArchiveFormat,
  displayName: string,
  folder: string,
  limits: ArchiveLimits,
  budget: ArchiveBudget,
  nextId: () => number,
): Promise<ExtractedEntry[]> {
  const context = { displayName, folder, limits, budget, nextId };
  return format === 'zip' ? extractZip(archivePath, context) : extractTar(archivePath, format === 'tar.gz', context);
}

/**
 * Writes a member already in memory (an e-mail's attachment) into `folder` under a numbered
 * name, charged to the upload's budget like an archive entry.
 */
export async function storeMember(
  content: Buffer,
  name: string,
  displayName: string,
  folder: string,
  limits: ArchiveLimits,
  budget: ArchiveBudget,
  nextId: () => number,
): Promise<ExtractedEntry> {
  const c: Context = { displayName, folder, limits, budget, nextId };
  const target = claim(c, name);
  budget.bytes -= content.length;
  if (budget.bytes < 0) throw tooLarge(c);
  await writeFile(target, content);
  return { path: target, name };
}

interface Context {
  displayName: string;
  folder: string;
  limits: ArchiveLimits;
  budget: ArchiveBudget;
  nextId: () => number;
}

async function extractZip(archivePath: string, c: Context): Promise<ExtractedEntry[]> {
  let zip: ZipReader;
  try {
    zip = await ZipReader.open(archivePath);
  } catch {
    throw refused(`${c.displayName} is a damaged zip archive. Check that the file is complete.`);
  }
  try {
    const extracted: ExtractedEntry[] = [];
    for (const entry of zip.entries) {
      const name = entryName(entry.name, c.displayName);
      if (entry.isDirectory || skipped(name)) continue;
      if (entry.unixType !== 0 && entry.unixType !== S_IFREG) {
        throw refused(
          `${c.displayName} contains ${name}, which is a link or a device file. Archives may hold only plain files.`,
        );
      }
      const target = claim(c, name);
      const meter = new Meter(c, name, Math.max(1, entry.compressedSize));
      try {
        await pipeline(await zip.openStream(entry), meter, createWriteStream(target));
      } catch (error) {
        throw (
          meter.failure ?? refused(`${c.displayName} could not be unpacked at ${name}: the archive is damaged.`, error)
        );
      }
      extracted.push({ path: target, name });
    }
    return extracted;
  } finally {
    zip.close();
  }
}

async function extractTar(archivePath: string, gzipped: boolean, c: Context): Promise<ExtractedEntry[]> {
  const extracted: ExtractedEntry[] = [];
  const writes: Promise<void>[] = [];
  const meters: Meter[] = [];
  let failure: DomainError | undefined;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      if (failure) return entry.resume();
      try {
        const name = entryName(entry.path, c.displayName);
        if (entry.type === 'Directory' || skipped(name)) return entry.resume();
        if (!['File', 'OldFile', 'ContiguousFile'].includes(entry.type)) {
          throw refused(
            `${c.displayName} contains ${name}, which is a link or a device file. Archives may hold only plain files.`,
          );
        }
        const target = claim(c, name);
        const meter = new Meter(c, name, Infinity);
        meters.push(meter);
        extracted.push({ path: target, name });
        writes.push(
          pipeline(entry as unknown as Readable, meter, createWriteStream(target)).catch((error: unknown) => {
            failure ??= meter.failure ?? refused(`${c.displayName} could not be unpacked at ${name}.`, error);
            parser.abort(failure);
          }),
        );
      } catch (error) {
        failure ??= error as DomainError;
        entry.resume();
        parser.abort(failure);
      }
    },
  });
  const source = createReadStream(archivePath);
  const compressedBytes = (await stat(archivePath)).size;
  const whole = new Meter(c, '', Math.max(1, compressedBytes), false);
  // tar's Parser is not a Node stream, so stream.pipeline cannot see it finish: wire it by hand.
  try {
    await new Promise<void>((resolve, reject) => {
      const gunzip = createGunzip();
      source.on('error', reject);
      gunzip.on('error', reject);
      whole.on('error', reject);
      parser.on('error', reject);
      parser.on('abort', reject);
      parser.on('end', resolve);
      parser.on('close', resolve);
      (gzipped ? source.pipe(gunzip).pipe(whole) : source).pipe(parser);
    });
  } catch (error) {
    source.destroy();
    failure ??=
      whole.failure ?? refused(`${c.displayName} is a damaged tar archive. Check that the file is complete.`, error);
    // An entry cut off mid-way would wait for the rest of its bytes forever: end its copy now.
    for (const meter of meters) meter.destroy(failure);
  }
  await Promise.all(writes);
  if (failure) throw failure;
  return extracted;
}

/** Counts bytes through an entry (or a whole gzip stream) and stops at the first limit passed. */
class Meter extends Transform {
  failure?: DomainError;
  private bytes = 0;

  constructor(
    private readonly c: Context,
    private readonly name: string,
    private readonly compressedBytes: number,
    private readonly charge = true,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.charge) this.c.budget.bytes -= chunk.length;
    if (this.charge && this.c.budget.bytes < 0) {
      this.failure = tooLarge(this.c);
    } else if (exceedsRatio(this.bytes, this.compressedBytes, this.c.limits.maxRatio)) {
      const what = this.name ? `${this.name} in ${this.c.displayName}` : this.c.displayName;
      this.failure = refused(
        `${what} expands more than ${this.c.limits.maxRatio}:1, which is how archive bombs look. Upload the files without that archive.`,
      );
    }
    if (this.failure) return done(this.failure);
    done(null, chunk);
  }
}

/** A safe display name for an entry, or a refusal naming the unsafe one. */
function entryName(raw: string, displayName: string): string {
  const name = raw.replace(/\\/g, '/');
  if (
    name.includes('\0') ||
    name.startsWith('/') ||
    /^[A-Za-z]:/.test(name) ||
    name.split('/').some((part) => part === '..')
  ) {
    throw refused(
      `${displayName} contains an entry with an unsafe path (${JSON.stringify(raw.slice(0, 200))}). Archives may not point outside themselves.`,
    );
  }
  return name.replace(/^(\.\/)+/, '');
}

function skipped(name: string): boolean {
  const parts = name.split('/').filter((p) => p.length > 0);
  return (
    parts.length === 0 ||
    parts[0] === '__MACOSX' ||
    parts.some((p) => p.startsWith('.')) ||
    JUNK.has(parts[parts.length - 1].toLowerCase())
  );
}

function claim(c: Context, name: string): string {
  c.budget.files -= 1;
  if (c.budget.files < 0) {
    throw new DomainError(
      'payload_too_large',
      `The upload holds more than ${c.limits.maxFiles} files once ${c.displayName} is unpacked (at ${name}). Split it into smaller uploads.`,
    );
  }
  return join(c.folder, `x${c.nextId()}`);
}

function tooLarge(c: Context): DomainError {
  return new DomainError(
    'payload_too_large',
    `${c.displayName} unpacks to more than ${Math.round(c.limits.maxTotalBytes / 1024 / 1024)} MB. Upload its files in smaller parts.`,
  );
}

function refused(detail: string, cause?: unknown): DomainError {
  return new DomainError('unsupported_format', detail, { cause });
}
