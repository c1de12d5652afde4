import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What a finished conversion must not leave behind, for tests: run folders, slots still held by
 * this process, office processes still running in a run folder.
 */

const RUN_PREFIX = 'docconv-lo-';
const SLOTS = 'docconv-lo-slots';

/** The run folders under `root` (the shared slot folder is not one). */
export async function runFolders(root: string): Promise<string[]> {
  return (await readdir(root)).filter((name) => name.startsWith(RUN_PREFIX) && name !== SLOTS);
}

/** The office slots this process holds. */
export async function heldSlots(): Promise<string[]> {
  const folder = join(tmpdir(), SLOTS);
  const held: string[] = [];
  for (const slot of await readdir(folder).catch(() => [])) {
    const holder = await readFile(join(folder, slot, 'holder'), 'utf8').catch(() => '{}');
    if ((JSON.parse(holder) as { pid?: number }).pid === process.pid) held.push(slot);
  }
  return held;
}

/** Command lines of the processes that mention a run folder under `root`. */
export async function officeProcesses(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (command.includes(join(root, RUN_PREFIX))) found.push(command.replace(/\0/g, ' '));
  }
  return found;
}
