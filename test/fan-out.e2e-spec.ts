import { queueConnectionOptions, queuePrefix } from '@docconv/redis';
import { stopProcess } from '@docconv/testing';
import { Queue } from 'bullmq';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createKey, signup, type TestKey } from './support/accounts';
import { makeMixedPdf, makePdf } from './support/fixtures';
import { upload, waitForJob } from './support/jobs';
import { privateStack } from './support/private-stack';
import { extractPdf } from '../libs/documents/src/pdf/extract-pdf';
import { structuredResult } from '@docconv/documents';
import type { TestApp } from './support/test-app';

/**
 * A large PDF's parse spread over page ranges that two worker processes (one slot each) read at
 * once: assembled exactly as if read whole, with progress, cancel, refunds and a crashed range
 * retried alone.
 */
describe('page-range fan-out', () => {
  const { stack, start } = privateStack('fan', { WORKER_LOCK_MS: '3000', WORKER_STALLED_INTERVAL_MS: '2000' });
  let t: TestApp;
  let key: TestKey;
  let parse: Queue;
  let folder: string;
  const auth = () => ({ 'X-API-Key': key.key });

  beforeAll(async () => {
    ({ t, key } = stack);
    parse = new Queue('parse', {
      connection: queueConnectionOptions(t.config.redis.url),
      prefix: queuePrefix(t.config),
    });
    folder = await mkdtemp(join(tmpdir(), 'fan-out-'));
    await start();
    await start();
    // Both workers take parse messages (a job is spread over the slots the queue has then).
    const deadline = Date.now() + 30_000;
    while ((await parse.getWorkersCount()) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await parse.getWorkersCount()).toBe(2);
  });
  afterAll(async () => {
    await parse.close();
    await rm(folder, { recursive: true, force: true });
  });

  /** The queue's range messages of a job, by first page. */
  async function rangesOf(jobId: string) {
    const jobs = await parse.getJobs(['completed', 'failed', 'active', 'waiting', 'prioritized', 'waiting-children']);
    return jobs
      .filter((job) => job?.name === 'parse.range' && job.data.jobId === jobId)
      .sort((a, b) => a.data.first - b.data.first);
  }

  async function ledgerOf(jobId: string): Promise<{ type: string; amount: number }[]> {
    return t.app
      .get(DataSource)
      .query('SELECT type, amount::int AS amount FROM credit_transactions WHERE job_id = $1 ORDER BY created_at', [
        jobId,
      ]);
  }

  /** A PDF of `pages` scanned pages (OCR'd, about a second each), page n reading "Scanned page n of the survey". */
  const scannedPdf = (pages: number) =>
    makeMixedPdf(Array.from({ length: pages }, (_, i) => ({ scan: `Scanned page ${i + 1} of the survey` })));

  it('reads a 1,000-page text PDF in ranges on both workers and gives the Markdown of the file read whole', async () => {
    const pdf = await makePdf(Array.from({ length: 1_000 }, (_, i) => `Page ${i + 1} of the spread report.`));
    const preview = (await upload(t.http, key.key, [{ name: 'spread.pdf', content: pdf }])).body;
    await t.http.post(`/api/v1/jobs/${preview.job_id}/confirm`).set(auth()).expect(200);
    const done = await waitForJob(t.http, key.key, preview.job_id);
    expect(done).toMatchObject({ status: 'done', done_pages: 1_000, refunded_points: 0 });

    // Two slots, about two ranges each: four ranges of 250 pages, each run once.
    const ranges = await rangesOf(preview.job_id);
    expect(ranges.map((r) => [r.data.first, r.data.last])).toEqual([
      [1, 250],
      [251, 500],
      [501, 750],
      [751, 1_000],
    ]);
    expect(ranges.map((r) => [r.finishedOn !== undefined, r.attemptsMade, r.returnvalue])).toEqual(
      ranges.map(() => [true, 1, 'read']),
    );

    const path = join(folder, 'spread.pdf');
    await writeFile(path, pdf);
    const whole = await extractPdf(path, 'spread.pdf', () => undefined);
    const markdown = (await t.http.get(`/api/v1/jobs/${preview.job_id}/download`).set(auth()).expect(200)).text;
    expect(markdown).toBe(whole.markdown);
    // The structured result too: every page's lines came back from the ranges as read.
    const structured = await t.http.get(`/api/v1/jobs/${preview.job_id}/download?format=json`).set(auth());
    expect(structured.body).toEqual(
      structuredResult(markdown, [
        {
          file: 'spread.pdf',
          kind: 'pdf',
          start: 0,
          end: markdown.length,
          headed: false,
          pages: whole.placed,
          reports: whole.pages,
        },
      ]),
    );
    const report = await t.http.get(`/api/v1/jobs/${preview.job_id}/pages`).set(auth());
    expect(report.status).toBe(200);
    expect(report.body.pages.map((p: { page: number }) => p.page)).toEqual(
      Array.from({ length: 1_000 }, (_, i) => i + 1),
    );
    // The ranges' parts are deleted once the job has ended; the charge is the quote's, once.
    const results = join(t.config.storage.localDir, 'results', preview.job_id);
    for (let n = 0; n < 50 && (await readdir(results)).includes('ranges'); n++)
      await new Promise((r) => setTimeout(r, 100));
    // The ranges' parts are gone; the pages delivered one by one stay (`pages/`: partial downloads, reconnecting streams).
    expect((await readdir(results)).sort()).toEqual([
      'document.json',
      'pages',
      'pages.json',
      'result.json',
      'result.md',
    ]);
    expect(await ledgerOf(preview.job_id)).toEqual([{ type: 'spend', amount: -preview.cost.points }]);
  });

  it('reads a shorter text PDF whole, and spreads a scan of the same length: intake looked at their pages', async () => {
    const text = (
      await upload(t.http, key.key, [
        { name: 'text.pdf', content: await makePdf(Array.from({ length: 40 }, (_, i) => `Page ${i + 1} of text.`)) },
      ])
    ).body;
    const scan = (await upload(t.http, key.key, [{ name: 'scan.pdf', content: await scannedPdf(20) }])).body;
    const sampled = await t.app
      .get(DataSource)
      .query<{ job_id: string; needs_ocr: boolean }[]>(
        'SELECT job_id, needs_ocr FROM job_files WHERE job_id = ANY($1)',
        [[text.job_id, scan.job_id]],
      );
    expect(Object.fromEntries(sampled.map((row) => [row.job_id, row.needs_ocr]))).toEqual({
      [text.job_id]: false,
      [scan.job_id]: true,
    });
    for (const job of [text, scan]) await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set(auth()).expect(200);
    for (const job of [text, scan])
      expect(await waitForJob(t.http, key.key, job.job_id, ['done', 'error', 'cancelled'], 120_000)).toMatchObject({
        status: 'done',
      });
    expect(await rangesOf(text.job_id)).toEqual([]);
    expect((await rangesOf(scan.job_id)).map((r) => [r.data.first, r.data.last])).toEqual([
      [1, 5],
      [6, 10],
      [11, 15],
      [16, 20],
    ]);
  }, 180_000);

  it('a cancel stops every range: the pages read stay downloadable, the rest are refunded', async () => {
    const total = 20;
    const preview = (await upload(t.http, key.key, [{ name: 'survey.pdf', content: await scannedPdf(total) }])).body;
    const pagePrice = preview.cost.points / total;
    await t.http.post(`/api/v1/jobs/${preview.job_id}/confirm`).set(auth()).expect(200);
    await waitFor(preview.job_id, (job) => (job.done_pages as number) >= 2);
    const cancel = await t.http.post(`/api/v1/jobs/${preview.job_id}/cancel`).set(auth());
    expect([200, 202]).toContain(cancel.status);
    const cancelled = await waitForJob(t.http, key.key, preview.job_id, ['done', 'error', 'cancelled'], 120_000);
    expect(cancelled.status).toBe('cancelled');

    const pages = (await t.http.get(`/api/v1/jobs/${preview.job_id}/pages`).set(auth())).body.pages as {
      page: number;
      source: string;
    }[];
    const delivered = pages.filter((p) => p.source !== 'failed').map((p) => p.page);
    expect(delivered.length).toBeGreaterThanOrEqual(2);
    expect(delivered.length).toBeLessThan(total);
    expect(cancelled.done_pages).toBe(delivered.length);
    // Exactly the pages read are in the Markdown, in page order.
    const markdown = (await t.http.get(`/api/v1/jobs/${preview.job_id}/download`).set(auth()).expect(200)).text;
    const found = [...markdown.matchAll(/Scanned page (\d+) of the survey/g)].map((m) => Number(m[1]));
    expect(found).toEqual(delivered);
    expect(cancelled.refunded_points).toBe((total - delivered.length) * pagePrice);
    expect(await ledgerOf(preview.job_id)).toEqual([
      { type: 'spend', amount: -preview.cost.points },
      { type: 'refund', amount: (total - delivered.length) * pagePrice },
    ]);
  }, 180_000);

  it("under fair queueing another user's job goes before the rest of a spread job's ranges", async () => {
    const other = await signup(t.http, 'fan-other');
    const otherKey = await createKey(t.http, other, { rate_limit_rpm: 100_000 });
    await t.app.get(DataSource).query('UPDATE users SET points_balance = 100000 WHERE id = $1', [other.userId]);
    const large = (await upload(t.http, key.key, [{ name: 'survey.pdf', content: await scannedPdf(20) }])).body;
    const small = (await upload(t.http, otherKey.key, [{ name: 'note.pdf', content: await scannedPdf(1) }])).body;
    await t.http.post(`/api/v1/jobs/${large.job_id}/confirm`).set(auth()).expect(200);
    await waitFor(large.job_id, (job) => (job.done_pages as number) >= 1);
    await t.http.post(`/api/v1/jobs/${small.job_id}/confirm`).set('X-API-Key', otherKey.key).expect(200);
    await waitForJob(t.http, otherKey.key, small.job_id, ['done', 'error', 'cancelled'], 120_000);
    // Four ranges of five pages on two slots: the small job is read once a slot frees, before the last ranges.
    const [row] = await t.app
      .get(DataSource)
      .query<{ status: string; done_pages: number }[]>('SELECT status, done_pages FROM jobs WHERE id = $1', [
        large.job_id,
      ]);
    expect(row.status).toBe('processing');
    expect(row.done_pages).toBeLessThan(20);
    expect(await waitForJob(t.http, key.key, large.job_id, ['done', 'error', 'cancelled'], 120_000)).toMatchObject({
      status: 'done',
      done_pages: 20,
    });
  }, 240_000);

  it('a worker killed mid-range: its range alone is read again, the job is done and charged once', async () => {
    const total = 20;
    const preview = (await upload(t.http, key.key, [{ name: 'survey.pdf', content: await scannedPdf(total) }])).body;
    await t.http.post(`/api/v1/jobs/${preview.job_id}/confirm`).set(auth()).expect(200);
    await waitFor(preview.job_id, (job) => (job.done_pages as number) >= 1);
    await stopProcess(stack.workers[0], 'SIGKILL');
    await start();

    const done = await waitForJob(t.http, key.key, preview.job_id, ['done', 'error', 'cancelled'], 150_000);
    expect(done).toMatchObject({ status: 'done', done_pages: total, refunded_points: 0 });
    const markdown = (await t.http.get(`/api/v1/jobs/${preview.job_id}/download`).set(auth()).expect(200)).text;
    const found = [...markdown.matchAll(/Scanned page (\d+) of the survey/g)].map((m) => Number(m[1]));
    expect(found).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    // The killed worker's range was taken over once its lock lapsed; the others ran once.
    const ranges = await rangesOf(preview.job_id);
    const takenOver = ranges.filter((r) => r.stalledCounter > 0);
    expect(takenOver).toHaveLength(1);
    expect(ranges.filter((r) => r.stalledCounter === 0).every((r) => r.attemptsMade === 1)).toBe(true);
    expect(await ledgerOf(preview.job_id)).toEqual([{ type: 'spend', amount: -preview.cost.points }]);
  }, 240_000);

  async function waitFor(jobId: string, ready: (job: Record<string, unknown>) => boolean) {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const job = (await t.http.get(`/api/v1/jobs/${jobId}`).set(auth())).body as Record<string, unknown>;
      if (job.status === 'processing' && ready(job)) return job;
      if (['done', 'error', 'cancelled'].includes(job.status as string))
        throw new Error(`job ended ${String(job.status)} before the test could act on it`);
      if (Date.now() > deadline) throw new Error(`job still ${String(job.status)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
});
