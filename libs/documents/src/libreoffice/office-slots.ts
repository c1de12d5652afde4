import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Slots for office processes shared by every thread and process of the host. Extraction runs in
 * a worker thread of its own per job, and threads share no module state, so an in-memory
 * semaphore alone caps one thread, not the worker. A slot is a directory created with `mkdir`
 * (atomic: exactly one caller gets it), holding who took it and until when. A slot whose holder
 * died (its process is gone) or ran past its time (a thread terminated mid-run, whose office
 * process `timeout(1)` kills by then) is taken over.
 */
export class OfficeSlots {
  constructor(
    /** The folder of the slot directories, read at each acquire (it follows `TMPDIR`). */
    private readonly folder: () => string,
    private readonly limit: number,
    private readonly pollMs = 200,
  ) {}

  /** Waits for a free slot and takes it for at most `holdMs`; resolves with its release. */
  async acquire(holdMs: number): Promise<() => Promise<void>> {
    const folder = this.folder();
    await mkdir(folder, { recursive: true });
    for (;;) {
      for (let i = 0; i < this.limit; i++) {
        const slot = join(folder, `slot-${i}`);
        if (await this.take(slot, holdMs)) return () => rm(slot, { recursive: true, force: true });
      }
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }

  /** Takes `slot` when it is free or its holder is gone; false when someone holds it. */
  private async take(slot: string, holdMs: number): Promise<boolean> {
    try {
      await mkdir(slot);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !(await isStale(slot))) return false;
      await rm(slot, { recursive: true, force: true });
      return false; // the next round competes for it like everyone else
    }
    await writeFile(join(slot, 'holder'), JSON.stringify({ pid: process.pid, until: Date.now() + holdMs }));
    return true;
  }
}

/** How long a slot without its holder file (being taken at this moment) counts as held. */
const TAKING_GRACE_MS = 10_000;

/** Whether the slot's holder is gone: its process has exited, or its time is over. */
async function isStale(slot: string): Promise<boolean> {
  let holder: { pid?: unknown; until?: unknown };
  try {
    holder = JSON.parse(await readFile(join(slot, 'holder'), 'utf8')) as typeof holder;
  } catch {
    const since = await stat(slot).then(
      (s) => s.mtimeMs,
      () => 0,
    );
    return Date.now() - since > TAKING_GRACE_MS;
  }
  if (typeof holder.until !== 'number' || holder.until < Date.now()) return true;
  return typeof holder.pid === 'number' && !isAlive(holder.pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
