import { stopProcess } from '@docconv/testing';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { makeMixedPdf } from '../test/support/fixtures';
import { upload, waitForJob } from '../test/support/jobs';
import { privateStack } from '../test/support/private-stack';
import { ms, printFigures } from './support/figures';
import { deleteRedisKeys } from './support/redis-keys';

const PAGES = 50;
/** Premium pages cost 30 each. */
const PAGE_PRICE = 30;

/**
 * Fifty pages, every fourth one scanned (read by OCR, so the job takes seconds rather than
 * milliseconds and a worker can be caught in the middle of it); the others carry a text layer
 * whose marker must appear in the result exactly once.
 */
function crashPages(): ({ text: string } | { scan: string })[] {
  return Array.from({ length: PAGES }, (_, i) =>
    i % 4 === 3 ? { scan: `Scanned page ${i + 1}` } : { text: `Marker page ${i + 1} of the crash test.` },
  );
}

/** Pages a worker must have reported done before it is killed: well into the job, far from its end. */
const KILL_AFTER_PAGES = 10;

/** Polls the job until a worker has reported `pages` finished pages (or the job ended). */
async function waitForProgress(
  get: () => Promise<Record<string, unknown>>,
  pages: number,
  timeoutMs = 60_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await get();
    if ((job.status === 'processing' && (job.done_pages as number) >= pages) || job.status === 'done') return job;
    if (Date.now() > deadline) throw new Error(`no progress within ${timeoutMs} ms: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A worker dies with SIGKILL halfway through a job. With short lock and stall timings the
 * queue notices, and a new worker finishes the job: done, charged once, one result.
 */
describe('a worker killed mid-job', () => {
  const { stack, start } = privateStack('crash', { WORKER_LOCK_MS: '3000', WORKER_STALLED_INTERVAL_MS: '2000' });
  afterAll(() => deleteRedisKeys(stack.env.REDIS_URL!, stack.env.REDIS_PREFIX!));

  it(`SIGKILL in the middle of a ${PAGES}-page job: a new worker finishes it, charged once, one result file`, async () => {
    const { t, key } = stack;
    const db = t.app.get(DataSource);
    const doomed = await start();
    const preview = await upload(t.http, key.key, [{ name: 'crash.pdf', content: await makeMixedPdf(crashPages()) }]);
    expect(preview.body).toMatchObject({ total_pages: PAGES, cost: { points: PAGES * PAGE_PRICE } });
    const jobId = preview.body.job_id as string;
    const balanceBefore = await balanceOf(db, jobId);
    const get = async () =>
      (await t.http.get(`/api/v1/jobs/${jobId}`).set('X-API-Key', key.key)).body as Record<string, unknown>;

    await t.http.post(`/api/v1/jobs/${jobId}/confirm`).set('X-API-Key', key.key).expect(200);
    const inHand = await waitForProgress(get, KILL_AFTER_PAGES);
    await stopProcess(doomed, 'SIGKILL');
    const killedAt = Date.now();
    // The kill must land mid-job for this test to mean anything.
    expect(inHand.status).toBe('processing');
    expect(inHand.done_pages).toBeLessThan(PAGES);

    await start();
    const done = await waitForJob(t.http, key.key, jobId, ['done', 'error'], 120_000);
    const finishedAfterKill = Date.now() - killedAt;
    const spends = await db.query<{ amount: string }[]>(
      `SELECT amount FROM credit_transactions WHERE job_id = $1 AND type = 'spend'`,
      [jobId],
    );
    const otherMoves = await db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM credit_transactions WHERE job_id = $1 AND type <> 'spend'`,
      [jobId],
    );
    const results = (await readdir(join(t.config.storage.localDir, 'results', jobId))).sort();
    const markdown = (await t.http.get(`/api/v1/jobs/${jobId}/download`).set('X-API-Key', key.key)).text;
    const report = (await t.http.get(`/api/v1/jobs/${jobId}/pages`).set('X-API-Key', key.key)).body.pages as {
      page: number;
    }[];

    printFigures(`Worker crash: SIGKILL during a ${PAGES}-page job`, [
      ['pages done when killed', `${String(inHand.done_pages)} of ${PAGES}`],
      ['killed → done by the new worker', ms(finishedAfterKill)],
      ['final status', `${String(done.status)}, ${String(done.done_pages)} pages`],
      ['spend rows / points charged', `${spends.length} / ${spends.reduce((sum, s) => sum - Number(s.amount), 0)}`],
      ['files in results/', results.join(', ')],
    ]);

    expect(done).toMatchObject({ status: 'done', done_pages: PAGES, cost_points: PAGES * PAGE_PRICE });
    expect(spends.map((s) => Number(s.amount))).toEqual([-PAGES * PAGE_PRICE]);
    expect(otherMoves[0].n).toBe(0);
    expect(await balanceOf(db, jobId)).toBe(balanceBefore - PAGES * PAGE_PRICE);
    // One result (with its document, page report and structured result), holding every page once and in order.
    expect(results).toEqual(['document.json', 'pages', 'pages.json', 'result.json', 'result.md']);
    const markers = [...markdown.matchAll(/Marker page (\d+) of the crash test/g)].map((m) => Number(m[1]));
    expect(markers).toEqual(crashPages().flatMap((page, i) => ('text' in page ? [i + 1] : [])));
    expect(report.map((p) => p.page)).toEqual(Array.from({ length: PAGES }, (_, i) => i + 1));
  });
});

/** The balance of the user who owns `jobId`. */
async function balanceOf(db: DataSource, jobId: string): Promise<number> {
  const [row] = await db.query<{ points_balance: string }[]>(
    'SELECT u.points_balance FROM users u JOIN jobs j ON j.user_id = u.id WHERE j.id = $1',
    [jobId],
  );
  return Number(row.points_balance);
}
