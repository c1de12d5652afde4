import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** What `read` gives, or `fallback` when the path went away meanwhile (the API removes folders as requests end). */
async function unlessGone<T>(read: Promise<T>, fallback: T): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw error;
  }
}

/** How many files, and how many bytes in them, are anywhere under `dir`; a file removed while counting is not counted. */
export async function filesUnder(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const entry of await unlessGone(readdir(dir, { withFileTypes: true }), [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const below = await filesUnder(path);
      files += below.files;
      bytes += below.bytes;
    } else if (entry.isFile()) {
      const size = await unlessGone(
        stat(path).then((s) => s.size),
        -1,
      );
      if (size < 0) continue;
      files++;
      bytes += size;
    }
  }
  return { files, bytes };
}

/** `filesUnder(dir)` once it holds no file, or after `timeoutMs` (temporary files go when their request ends). */
export async function filesLeftUnder(dir: string, timeoutMs = 10_000): Promise<{ files: number; bytes: number }> {
  const deadline = Date.now() + timeoutMs;
  let left = await filesUnder(dir);
  while (left.files > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = await filesUnder(dir);
  }
  return left;
}
