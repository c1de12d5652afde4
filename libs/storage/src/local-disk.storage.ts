import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { assertStoragePath, Storage } from './storage.port';

/** Files under one root directory. Writes go to a temporary name and are renamed into place. */
export class LocalDiskStorage extends Storage {
  constructor(private readonly root: string) {
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

  read(path: string): Promise<Buffer> {
    return readFile(this.resolve(path));
  }

  async stream(path: string): Promise<Readable> {
    const target = this.resolve(path);
    await access(target);
    return createReadStream(target);
  }

  async exists(path: string): Promise<boolean> {
    try {
      await access(this.resolve(path));
      return true;
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
}
