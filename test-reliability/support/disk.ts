import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** How many files, and how many bytes in them, are anywhere under `dir`. */
export async function filesUnder(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
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
