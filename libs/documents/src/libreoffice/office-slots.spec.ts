import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OfficeSlots } from './office-slots';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'docconv-slots-spec-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Whether `promise` has settled after the event loop has turned a few times. */
async function settled(promise: Promise<unknown>, waitMs = 60): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  return done;
}

describe('OfficeSlots', () => {
  it('hands out `limit` slots and makes the next caller wait for a release', async () => {
    const slots = new OfficeSlots(() => folder, 2, 5);
    const first = await slots.acquire(60_000);
    const second = await slots.acquire(60_000);
    const third = slots.acquire(60_000);
    expect(await settled(third)).toBe(false);
    await first();
    // The released slot is handed on: the third caller gets it (awaited, not timed, so a busy machine cannot fail this).
    const releaseThird = await third;
    await second();
    await releaseThird();
    expect(await readdir(folder)).toEqual([]);
  });

  it('is shared by every OfficeSlots on the same folder (other threads and processes)', async () => {
    const mine = new OfficeSlots(() => folder, 1, 5);
    const theirs = new OfficeSlots(() => folder, 1, 5);
    const release = await mine.acquire(60_000);
    const waiting = theirs.acquire(60_000);
    expect(await settled(waiting)).toBe(false);
    await release();
    await (
      await waiting
    )();
  });

  it('takes over a slot whose holder ran past its time or whose process is gone', async () => {
    const slots = new OfficeSlots(() => folder, 1, 5);
    await mkdir(join(folder, 'slot-0'));
    await writeFile(join(folder, 'slot-0', 'holder'), JSON.stringify({ pid: process.pid, until: Date.now() - 1 }));
    await (
      await slots.acquire(60_000)
    )();

    await mkdir(join(folder, 'slot-0'));
    // No process has this id: pids stop well below 2^30 on Linux.
    await writeFile(join(folder, 'slot-0', 'holder'), JSON.stringify({ pid: 2 ** 30, until: Date.now() + 60_000 }));
    await (
      await slots.acquire(60_000)
    )();
  });

  it('leaves a live holder’s slot alone', async () => {
    const slots = new OfficeSlots(() => folder, 1, 5);
    await mkdir(join(folder, 'slot-0'));
    await writeFile(join(folder, 'slot-0', 'holder'), JSON.stringify({ pid: process.pid, until: Date.now() + 60_000 }));
    const waiting = slots.acquire(60_000);
    expect(await settled(waiting)).toBe(false);
    await rm(join(folder, 'slot-0'), { recursive: true });
    await (
      await waiting
    )();
  });
});
