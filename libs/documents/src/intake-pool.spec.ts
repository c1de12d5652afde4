import { DomainError } from '@docconv/contracts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hwpBomb } from '../../../test/support/bombs';
import { makePdf } from '../../../test/support/fixtures';
import type { ArchiveLimits } from './archive/extract-archive';
import type { DetectOptions } from './detect';
import { IntakePool } from './intake-pool';

/** Limits that let a 100 MB HWP section through, so that what stops it is the thread's memory or deadline. */
const LOOSE: ArchiveLimits = { maxFiles: 10, maxTotalBytes: 4 * 1024 ** 3, maxRatio: 1_000_000 };
const USUAL: ArchiveLimits = { maxFiles: 10, maxTotalBytes: 1024 ** 3, maxRatio: 200 };
/** A deployment without transcription. */
const DOCUMENTS: DetectOptions = { media: false };

async function refusal(run: Promise<unknown>): Promise<DomainError> {
  const error: unknown = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('IntakePool: inspection in threads with a memory cap and a deadline', () => {
  let folder: string;
  let bomb: string;
  const pools: IntakePool[] = [];
  const pool = (memoryMb: number, timeoutMs: number) => {
    const created = new IntakePool({ threads: 1, memoryMb, timeoutMs });
    pools.push(created);
    return created;
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'docconv-intake-pool-'));
    bomb = join(folder, 'bomb.hwp');
    // 100 MB of zeros in the body section: read as records, it becomes millions of objects.
    await writeFile(bomb, await hwpBomb(100 * 1024 * 1024));
    await writeFile(join(folder, 'report.pdf'), await makePdf(['one', 'two']));
    await writeFile(join(folder, 'program.exe'), Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(512)]));
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
    await rm(folder, { recursive: true, force: true });
  });

  it('measures files in a thread and keeps a refusal as it was thrown', async () => {
    const inspector = pool(256, 30_000);
    const { files } = await inspector.run(
      [{ path: join(folder, 'report.pdf'), displayName: 'report.pdf' }],
      folder,
      USUAL,
      DOCUMENTS,
    );
    expect(files).toMatchObject([{ displayPath: 'report.pdf', kind: 'pdf', inspection: { pages: 2 } }]);
    const error = await refusal(
      inspector.run([{ path: join(folder, 'program.exe'), displayName: 'program.exe' }], folder, USUAL, DOCUMENTS),
    );
    expect(error.code).toBe('unsupported_format');
    expect(error.message).toMatch(/^program\.exe /);
  });

  it('within the upload limits, a decompression bomb is refused by its ratio before anything grows', async () => {
    const error = await refusal(
      pool(256, 30_000).run([{ path: bomb, displayName: 'bomb.hwp' }], folder, USUAL, DOCUMENTS),
    );
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toMatch(/^bomb\.hwp: its part BodyText\/Section0 /);
  });

  it('a file that needs more memory than a thread has costs that thread only: 413 naming the file, and the pool goes on', async () => {
    const inspector = pool(64, 60_000);
    const error = await refusal(
      inspector.run(
        [
          { path: join(folder, 'report.pdf'), displayName: 'first.pdf' },
          { path: bomb, displayName: '큰 문서.hwp' },
        ],
        folder,
        LOOSE,
        DOCUMENTS,
      ),
    );
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toBe(
      '큰 문서.hwp needs more than 64 MB of memory to inspect, more than an upload may. If it is a real document, split it into smaller files.',
    );
    // The pool replaced the thread it lost.
    const { files } = await inspector.run(
      [{ path: join(folder, 'report.pdf'), displayName: 'again.pdf' }],
      folder,
      USUAL,
      DOCUMENTS,
    );
    expect(files).toHaveLength(1);
  });

  it('a file that takes longer than the deadline is stopped there: 413 naming the file', async () => {
    const inspector = pool(4096, 1_000);
    const started = Date.now();
    const error = await refusal(inspector.run([{ path: bomb, displayName: 'slow.hwp' }], folder, LOOSE, DOCUMENTS));
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toMatch(/^slow\.hwp takes longer than 1 s to inspect/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
