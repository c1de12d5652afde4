import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { signLocalFileUrl, type LocalFileUrlSigning } from './local-file-url';
import { assertStoragePath, Storage, type SignedUrlOptions } from './storage.port';

/**
 * Files under one root directory. Writes go to a temporary name and are renamed into place.
 * Download links point at the API's `/api/v1/files/…` route, which checks them and streams
 * the file; a store opened without `links` (tools that only move bytes) cannot make them.
 */
export class LocalDiskStorage extends Storage {
  constructor(
    private readonly root: string,
    private readonly links?: LocalFileUrlSigning,
  ) {
    super();
  }

  private resolve(path: string): string {
    return join(this.root, assertStoragePath(path));
  }

  async put(path: string, body: Buffer | Readable): Promise<{ bytes: number }> {
    const target = this.resolve(path);
    await mkdir(dirname(target), { recursive: true });
    const temporary = `${target}.${randomUUID()}.partial`;
    let bytes = 0;
    try {
      if (Buffer.isBuffer(body)) {
        await writeFile(temporary, body);
        bytes = body.length;
      } else {
        body.on('data', (chunk: Buffer) => (bytes += chunk.length));
        await pipeline(body, createWriteStream(temporary));
      }
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { bytes };
  }

  async read(path: string): Promise<Buffer> {
    return readFile(this.resolve(path));
  }

  /** Looks for the file before returning, so a missing one rejects here rather than mid-stream. */
  async stream(path: string): Promise<Readable> {
    const target = this.resolve(path);
    if (!(await stat(target)).isFile()) throw new Error(`Not a stored file but a folder: ${path}`);
    return createReadStream(target);
  }

  /** True for a stored file; a folder of files is not one. */
  async exists(path: string): Promise<boolean> {
    const target = this.resolve(path);
    try {
      return (await stat(target)).isFile();
    } catch {
      return false;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.resolve(prefix), { recursive: true, force: true });
  }

  async check(): Promise<void> {
    const probe = `health/${randomUUID()}`;
    await this.put(probe, Buffer.from('ok'));
    const back = await this.read(probe);
    await rm(this.resolve(probe), { force: true });
    if (back.toString() !== 'ok') throw new Error('storage returned different bytes than were written');
  }

  async signedUrl(path: string, options: SignedUrlOptions): Promise<string> {
    if (!this.links)
      throw new Error('This local store was opened without FILE_URL_SECRET, so it cannot make download links');
    return signLocalFileUrl(path, options, this.links);
  }
}
