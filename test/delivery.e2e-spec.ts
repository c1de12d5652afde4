import { LedgerService } from '@docconv/billing';
import { DataSource } from 'typeorm';
import { createKey, signup, type TestKey, type TestUser } from './support/accounts';
import {
  greyTiff,
  makeBannerPng,
  makeDensePng,
  makePdf,
  makePicturePng,
  makeTextPng,
  makeTiffWithUnreadableFrame,
} from './support/fixtures';
import { privateStack } from './support/private-stack';
import sharp from 'sharp';
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
    return res.body.pages as { file: string; page: number; source: string; failure?: string; notes?: string[] }[];
  }

  /** Uploads and confirms `files` with the job's Tesseract, then waits for the job to end. */
  async function run(files: { name: string; content: Buffer }[]) {
    const res = await upload(t.http, key.key, files, { ocr_engine: 'tesseract', ocr_model: 'basic' });
    if (res.status !== 201) throw new Error(`upload refused: ${JSON.stringify(res.body)}`);
    const preview = res.body;
    await t.http.post(`/api/v1/jobs/${preview.job_id}/confirm`).set(auth()).expect(200);
    return { preview, job: await waitForJob(t.http, key.key, preview.job_id, ['done', 'error'], 120_000) };
  }

  it('a page the engine fails on or finds no text on though it has ink is refunded, listed with why, and marked', async () => {
    // Frames of one size (1400 by 700), each picture set on white at its top left.
    const grey = async (png: Buffer) => {
      const { data, info } = await sharp(png)
        .extend({
          right: 1400 - (await sharp(png).metadata()).width,
          bottom: 700 - (await sharp(png).metadata()).height,
          background: 'white',
        })
        .greyscale()
        .raw()
        .toBuffer({ resolveWithObject: true });
      return { width: info.width, height: info.height, strip: data, deflated: false };
    };
    // A scan of three frames, the second a photograph without text; and a banner Tesseract cannot take.
    const tiff = greyTiff([
      await grey(await makeTextPng('First frame of the scan')),
      await grey(await makePicturePng()),
      await grey(await makeTextPng('Third frame of the scan')),
    ]);
    const { preview, job } = await run([
      { name: 'scan.tiff', content: tiff },
      { name: 'banner.png', content: await makeBannerPng() },
    ]);
    const imagePrice = preview.cost.points / 4;
    expect(job).toMatchObject({
      status: 'done',
      refunded_points: 2 * imagePrice,
      delivered_pages: 2,
      failed_pages: 2,
      refunded_pages: 2,
    });

    const pages = await pagesOf(preview.job_id);
    expect(pages.map((p) => [p.file, p.page, p.source, p.failure])).toEqual([
      ['scan.tiff', 1, 'ocr', undefined],
      ['scan.tiff', 2, 'failed', 'no_text'],
      ['scan.tiff', 3, 'ocr', undefined],
      ['banner.png', 1, 'failed', 'engine_error'],
    ]);
    expect(pages[1].notes).toEqual([
      'Page 2 of scan.tiff was not read: no text was found on it, though it is not blank.',
    ]);
    expect(pages[3].notes?.[0]).toMatch(/^Page 1 of banner\.png was not read: the tesseract engine failed on it \(/);

    // Marked where they would have been, in words a reader understands.
    const markdown = (await t.http.get(`/api/v1/jobs/${preview.job_id}/download`).set(auth()).expect(200)).text;
    const first = markdown.indexOf('First frame');
    const marked = markdown.indexOf(
      '> **Frame 2 was not read:** no text was found on it, though it is not blank. It is not charged.',
    );
    const third = markdown.indexOf('Third frame');
    expect([first, marked, third].every((at) => at >= 0)).toBe(true);
    expect(first < marked && marked < third).toBe(true);
    expect(markdown).toMatch(
      /## banner\.png\n\n> \*\*This file was not read:\*\* Page 1 of banner\.png was not read: the tesseract engine failed on it .*It is not charged\./,
    );

    // The structured result lists both with their reasons.
    const result = (await t.http.get(`/api/v1/jobs/${preview.job_id}/download?format=json`).set(auth()).expect(200))
      .body as { pages: { file: string; page: number; source: string; failure?: string; reason?: string }[] };
    expect(result.pages.filter((p) => p.source === 'failed').map((p) => [p.file, p.page, p.failure])).toEqual([
      ['scan.tiff', 2, 'no_text'],
      ['banner.png', 1, 'engine_error'],
    ]);
    expect(result.pages.every((p) => p.source !== 'failed' || (p.reason ?? '').length > 0)).toBe(true);

    // Refunded in the move that finished the job: one row naming what was not delivered.
    const ledger = await ledgerOf(preview.job_id);
    expect(ledger.rows.map((r) => [r.type, r.amount])).toEqual([
      ['spend', -preview.cost.points],
      ['refund', 2 * imagePrice],
    ]);
    expect(ledger.rows[1].description).toMatch(/not delivered: scan\.tiff page 2; banner\.png \(whole file\)/);
  });

  it('a job none of whose pages was read ends in error, refundable, and its refund gives every page back', async () => {
    const { preview, job } = await run([{ name: 'photo.png', content: await makePicturePng() }]);
    expect(job).toMatchObject({
      status: 'error',
      refundable: true,
      refunded_points: 0,
      delivered_pages: 0,
      failed_pages: 1,
      refunded_pages: 0,
      error_log: 'Page 1 of photo.png was not read: no text was found on it, though it is not blank.',
    });
    await t.http.post(`/api/v1/jobs/${preview.job_id}/action`).set(auth()).send({ action: 'refund' }).expect(200);
    const refunded = (await t.http.get(`/api/v1/jobs/${preview.job_id}`).set(auth()).expect(200)).body;
    expect(refunded).toMatchObject({ refunded_points: preview.cost.points, refunded_pages: 1, refundable: false });
    const ledger = await ledgerOf(preview.job_id);
    expect(ledger.rows.map((r) => [r.type, r.amount])).toEqual([
      ['spend', -preview.cost.points],
      ['refund', preview.cost.points],
    ]);
  });

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

/**
 * The per-page deadline is a safety valve: a page still being read when it passes fails, is
 * refunded and marked, and is never delivered as a partial reading. A worker whose valve is one
 * second meets a dense A4 page read by Tesseract's best model, seconds of work on any machine,
 * beside a PDF page read from its text layer.
 */
describe('a page that reaches the safety valve', () => {
  const { stack, start } = privateStack('valve', { OCR_PAGE_DEADLINE_SECONDS: '1' });
  beforeAll(() => start(), 60_000);

  it('fails, is refunded and marked; a job of only such a page ends in error, refundable', async () => {
    const auth = { 'X-API-Key': stack.key.key };
    const files = [
      { name: 'dense.png', content: await makeDensePng() },
      // Read from its text layer, which no load can hold up: always delivered.
      { name: 'notes.pdf', content: await makePdf(['Short note 4417']) },
    ];
    const preview = (
      await upload(stack.t.http, stack.key.key, files, { ocr_engine: 'tesseract', ocr_model: 'premium' })
    ).body;
    await stack.t.http.post(`/api/v1/jobs/${preview.job_id}/confirm`).set(auth).expect(200);
    const job = await waitForJob(stack.t.http, stack.key.key, preview.job_id, ['done', 'error'], 120_000);
    // The dense page cannot be read within a second; it alone is refunded.
    const pdfAlone = (await upload(stack.t.http, stack.key.key, [files[1]], { ocr_model: 'premium' })).body.cost
      .points as number;
    expect(job).toMatchObject({
      status: 'done',
      delivered_pages: 1,
      failed_pages: 1,
      refunded_pages: 1,
      refunded_points: preview.cost.points - pdfAlone,
    });
    const pages = (await stack.t.http.get(`/api/v1/jobs/${preview.job_id}/pages`).set(auth).expect(200)).body.pages as {
      file: string;
      source: string;
      failure?: string;
      notes?: string[];
    }[];
    expect(pages.map((p) => [p.file, p.source, p.failure])).toEqual([
      ['dense.png', 'failed', 'deadline'],
      ['notes.pdf', 'text', undefined],
    ]);
    expect(pages[0].notes).toEqual([
      'Page 1 of dense.png was not read: its reading was stopped after 1 s, the most a page may take.',
    ]);
    const markdown = (await stack.t.http.get(`/api/v1/jobs/${preview.job_id}/download`).set(auth).expect(200)).text;
    expect(markdown).toMatch(/> \*\*This file was not read:\*\* .*stopped after 1 s.*It is not charged\./);
    expect(markdown).toMatch(/Short note 4417/);

    const alone = (
      await upload(stack.t.http, stack.key.key, [files[0]], { ocr_engine: 'tesseract', ocr_model: 'premium' })
    ).body;
    await stack.t.http.post(`/api/v1/jobs/${alone.job_id}/confirm`).set(auth).expect(200);
    const failed = await waitForJob(stack.t.http, stack.key.key, alone.job_id, ['done', 'error'], 120_000);
    expect(failed).toMatchObject({ status: 'error', refundable: true, failed_pages: 1, delivered_pages: 0 });
    expect(failed.error_log).toMatch(/stopped after 1 s/);
  }, 240_000);
});
