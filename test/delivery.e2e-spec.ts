import { LedgerService } from '@docconv/billing';
import { DataSource } from 'typeorm';
import { createKey, signup, type TestKey, type TestUser } from './support/accounts';
import { makePdf, makeTextPng, makeTiffWithUnreadableFrame } from './support/fixtures';
import { upload, waitForJob } from './support/jobs';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Paying only for what is delivered: a page or a file that cannot be read is refunded at once
 * while the rest of the job is delivered, and a job cancelled while it processes keeps the
 * pages finished and refunds the others. The ledger always adds up to what was delivered.
 */
describe('pay only for pages delivered', () => {
  let t: TestApp;
  let db: DataSource;
  let user: TestUser;
  let key: TestKey;
  const auth = () => ({ 'X-API-Key': key.key });

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    user = await signup(t.http, 'delivery');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    await t.app.get(LedgerService).post({
      userId: user.userId,
      type: 'grant',
      points: 1_000_000,
      description: 'test funds',
      idempotencyKey: `grant:${user.userId}`,
    });
  });
  afterAll(() => t.close());

  /** The job's ledger rows, and their sum (negative: what the user paid). */
  async function ledgerOf(jobId: string) {
    const rows = await db.query<{ type: string; amount: number; description: string }[]>(
      'SELECT type, amount::int AS amount, description FROM credit_transactions WHERE job_id = $1 ORDER BY created_at',
      [jobId],
    );
    return { rows, sum: rows.reduce((total, r) => total + r.amount, 0) };
  }

  async function pagesOf(jobId: string) {
    const res = await t.http.get(`/api/v1/jobs/${jobId}/pages`).set(auth()).expect(200);
    return res.body.pages as { file: string; page: number; source: string; notes?: string[] }[];
  }

  it('a frame that cannot be read is refunded at once; the other frames are delivered', async () => {
    const tiff = await makeTiffWithUnreadableFrame(
      ['First frame of the scan', 'Second frame', 'Third frame of the scan'],
      1,
    );
    const uploaded = await upload(t.http, key.key, [{ name: 'scan.tiff', content: tiff }]);
    expect(uploaded.body).toMatchObject({ total_files: 1 });
    const preview = uploaded.body;
    const imagePrice = preview.cost.points / 3;
    expect(preview.cost).toMatchObject({ image_count: 3 });
    await t.http.post(`/api/v1/jobs/${preview.job_id}/confirm`).set(auth()).expect(200);
    const done = await waitForJob(t.http, key.key, preview.job_id);

    expect(done).toMatchObject({ status: 'done', cost_points: preview.cost.points, refunded_points: imagePrice });
    const pages = await pagesOf(preview.job_id);
    expect(pages.map((p) => [p.page, p.source])).toEqual([
      [1, 'ocr'],
      [2, 'failed'],
      [3, 'ocr'],
    ]);
    expect(pages[1].notes?.[0]).toMatch(/scan\.tiff \(frame 2\) could not be read/);
    const markdown = (await t.http.get(`/api/v1/jobs/${preview.job_id}/download`).set(auth()).expect(200)).text;
    expect(markdown).toMatch(/First frame/);
    expect(markdown).toMatch(/Third frame/);
    const ledger = await ledgerOf(preview.job_id);
    expect(ledger.rows.map((r) => [r.type, r.amount])).toEqual([
      ['spend', -preview.cost.points],
      ['refund', imagePrice],
    ]);
    expect(ledger.rows[1].description).toMatch(/not delivered: scan\.tiff page 2/);
    expect(-ledger.sum).toBe(2 * imagePrice);
  });

  it('in a job of several files, a file that cannot be read is refunded and the others are delivered', async () => {
    const png = await makeTextPng('truncated');
    const files = [
      { name: 'report.pdf', content: await makePdf(['The report itself, readable']) },
      { name: 'cut.png', content: png.subarray(0, Math.floor(png.length / 2)) },
    ];
    const preview = (await upload(t.http, key.key, files)).body;
    await t.http.post(`/api/v1/jobs/${preview.job_id}/confirm`).set(auth()).expect(200);
    const done = await waitForJob(t.http, key.key, preview.job_id);
    const ledger = await ledgerOf(preview.job_id);

    expect(done.status).toBe('done');
    const pages = await pagesOf(preview.job_id);
    expect(pages).toEqual([
      expect.objectContaining({ file: 'report.pdf', page: 1, source: 'text' }),
      expect.objectContaining({
        file: 'cut.png',
        page: 1,
        source: 'failed',
        notes: [expect.stringMatching(/cut\.png/)],
      }),
    ]);
    // What is left paid is what the PDF page alone costs.
    const pdfAlone = (await upload(t.http, key.key, [files[0]])).body.cost.points as number;
    expect(-ledger.sum).toBe(pdfAlone);
    expect(done.refunded_points).toBe(preview.cost.points - pdfAlone);
    expect(ledger.rows.at(-1)?.description).toMatch(/not delivered: cut\.png \(whole file\)/);
  });

  it('a job cancelled while processing stops at the next page, keeps the pages finished and refunds the rest', async () => {
    const total = 6_000; // long enough to be caught midway: a page of one line reads in about a millisecond
    const pdf = await makePdf(Array.from({ length: total }, (_, i) => `Page ${i + 1} of the cancelled report.`));
    const preview = (await upload(t.http, key.key, [{ name: 'long.pdf', content: pdf }])).body;
    const pagePrice = preview.cost.points / total;
    await t.http.post(`/api/v1/jobs/${preview.job_id}/confirm`).set(auth()).expect(200);
    const working = await waitUntil(preview.job_id, (job) => job.status !== 'queued' && (job.done_pages as number) > 0);
    expect(working.status).toBe('processing'); // caught in the middle, or the test means nothing

    const cancel = await t.http.post(`/api/v1/jobs/${preview.job_id}/cancel`).set(auth());
    expect([200, 202]).toContain(cancel.status);
    const cancelled = await waitForJob(t.http, key.key, preview.job_id);
    expect(cancelled).toMatchObject({ status: 'cancelled', downloadable: false });

    // Read whole, the pages read are the first ones; spread over page ranges, the first of each range.
    const pages = await pagesOf(preview.job_id);
    expect(pages.every((p) => p.source === 'text')).toBe(true);
    const read = pages.map((p) => p.page);
    const delivered = read.length;
    expect(delivered).toBeGreaterThan(0);
    expect(delivered).toBeLessThan(total);
    expect(cancelled.done_pages).toBe(delivered);
    // Exactly the pages read are in the Markdown, in page order.
    const markdown = (await t.http.get(`/api/v1/jobs/${preview.job_id}/download`).set(auth()).expect(200)).text;
    const found = [...markdown.matchAll(/Page (\d+) of the cancelled report\./g)].map((m) => Number(m[1]));
    expect(found).toEqual(read);

    const ledger = await ledgerOf(preview.job_id);
    expect(cancelled.refunded_points).toBe((total - delivered) * pagePrice);
    expect(-ledger.sum).toBe(delivered * pagePrice);
    expect(ledger.rows.map((r) => r.type)).toEqual(['spend', 'refund']);

    // Cancelling again, or converting the partial result, is refused clearly.
    const again = await t.http.post(`/api/v1/jobs/${preview.job_id}/cancel`).set(auth());
    expect(again.status).toBe(400);
    expect(again.body.detail).toMatch(/cancelled/);
  });

  async function waitUntil(jobId: string, ready: (job: Record<string, unknown>) => boolean) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const job = (await t.http.get(`/api/v1/jobs/${jobId}`).set(auth())).body as Record<string, unknown>;
      if (ready(job) || ['done', 'error', 'cancelled'].includes(job.status as string)) return job;
      if (Date.now() > deadline) throw new Error(`job still ${String(job.status)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
});
