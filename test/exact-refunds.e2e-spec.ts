import { LedgerService } from '@docconv/billing';
import { DataSource } from 'typeorm';
import { createKey, signup, type TestKey, type TestUser } from './support/accounts';
import { makeDocx, makePdf } from './support/fixtures';
import { upload, waitForJob } from './support/jobs';
import {
  BASIC_PAGE_POINTS,
  disagreements,
  FREE_PAGES_PER_MONTH,
  moneyOf,
  pdfWithUnreadablePages,
} from './support/money';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Nothing undelivered is paid for, in points or in free pages: a file or page that cannot be read
 * gives back its free pages with its points when the job ends, and a cancel charges only the pages
 * that finished before it, however fast the worker reads. Each job's ledger, refund, page counts
 * and the user's free-page counter agree.
 */
describe('refunds exact to the page', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  /** A funded user with `freeLeft` of the month's free pages left (the rest reserved by a quote left pending). */
  async function customer(tag: string, freeLeft: number) {
    const user: TestUser = await signup(t.http, tag);
    const key: TestKey = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    await t.app.get(LedgerService).post({
      userId: user.userId,
      type: 'grant',
      points: 1_000_000,
      description: 'test funds',
      idempotencyKey: `grant:${user.userId}`,
    });
    const reserved = FREE_PAGES_PER_MONTH - freeLeft;
    if (reserved > 0) {
      const pdf = await makePdf(Array.from({ length: reserved }, (_, i) => `Reserved page ${i + 1}`));
      const res = await upload(t.http, key.key, [{ name: 'reserved.pdf', content: pdf }], { ocr_model: 'basic' });
      expect(res.body.cost.free_pages_used).toBe(reserved);
    }
    const auth = { 'X-API-Key': key.key };
    const freePages = async () =>
      (await t.http.get('/api/v1/account').set(auth).expect(200)).body.free_pages as { used: number; left: number };
    /** The user's money, each figure recomputed from the pages delivered; none may disagree. */
    const agrees = async () => {
      const money = await moneyOf(db, user.userId, (await freePages()).used);
      expect(disagreements(money)).toEqual([]);
      return money;
    };
    return { user, key, auth, freePages, agrees };
  }

  /** Uploads `files` for the basic model with Tesseract and confirms them. */
  async function start(key: TestKey, files: { name: string; content: Buffer }[]) {
    const res = await upload(t.http, key.key, files, { ocr_engine: 'tesseract', ocr_model: 'basic' });
    if (res.status !== 201) throw new Error(`upload refused: ${JSON.stringify(res.body)}`);
    await t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    return res.body as { job_id: string; cost: { points: number; free_pages_used: number; pages: number } };
  }

  async function ledgerOf(jobId: string) {
    return db.query<{ type: string; amount: number; description: string }[]>(
      'SELECT type, amount::int AS amount, description FROM credit_transactions WHERE job_id = $1 ORDER BY created_at',
      [jobId],
    );
  }

  it('a file of a job that cannot be read gives back its free pages with its points', async () => {
    const c = await customer('file-fails', 3); // 5 pages for 3 free ones: 2 are paid
    const preview = await start(c.key, [
      { name: 'good.pdf', content: await makePdf(['Good page one', 'Good page two']) },
      { name: 'blank.pdf', content: await pdfWithUnreadablePages([null, null, null]) },
    ]);
    expect(preview.cost).toMatchObject({ pages: 5, free_pages_used: 3, points: 2 * BASIC_PAGE_POINTS });
    const job = await waitForJob(t.http, c.key.key, preview.job_id, ['done', 'error'], 120_000);
    // Two pages delivered, both free: the points are all given back, and the free page blank.pdf held.
    expect(job).toMatchObject({
      status: 'done',
      delivered_pages: 2,
      failed_pages: 3,
      refunded_pages: 3,
      refunded_points: 2 * BASIC_PAGE_POINTS,
    });
    await expect(c.freePages()).resolves.toMatchObject({ used: 97 + 2, left: 1 });
    expect((await ledgerOf(preview.job_id)).map((r) => [r.type, r.amount])).toEqual([
      ['spend', -2 * BASIC_PAGE_POINTS],
      ['refund', 2 * BASIC_PAGE_POINTS],
    ]);
    await c.agrees();
  });

  it('pages that cannot be read give back their free pages with their points', async () => {
    const c = await customer('pages-fail', 4); // 5 pages for 4 free ones: 1 is paid
    const pdf = await pdfWithUnreadablePages(['Read one', null, 'Read three', null, 'Read five']);
    const preview = await start(c.key, [{ name: 'mixed.pdf', content: pdf }]);
    expect(preview.cost).toMatchObject({ pages: 5, free_pages_used: 4, points: BASIC_PAGE_POINTS });
    const job = await waitForJob(t.http, c.key.key, preview.job_id, ['done', 'error'], 120_000);
    // Three pages delivered, all free: the paid page's points and one free page come back.
    expect(job).toMatchObject({
      status: 'done',
      delivered_pages: 3,
      failed_pages: 2,
      refunded_pages: 2,
      refunded_points: BASIC_PAGE_POINTS,
    });
    await expect(c.freePages()).resolves.toMatchObject({ used: 96 + 3, left: 1 });
    await c.agrees();
  });

  it('a cancel mid-file charges only the pages finished before it, and the reading stops at the page in hand', async () => {
    const c = await customer('cancel-mid-file', FREE_PAGES_PER_MONTH);
    // Under the page count at which a text PDF is spread over page ranges: one thread reads it, page by page.
    const total = 990;
    const lines = (n: number) => Array.from({ length: 12 }, (_, i) => `Line ${i + 1} of page ${n} of the report.`);
    const pdf = await makePdf(
      Array.from({ length: total }, (_, i) => `Page ${i + 1} opens.\n${lines(i + 1).join('\n')}`),
    );
    const preview = await start(c.key, [{ name: 'long.pdf', content: pdf }]);
    expect(preview.cost).toMatchObject({ free_pages_used: 100, points: (total - 100) * BASIC_PAGE_POINTS });
    const working = await waitUntil(c.key, preview.job_id, (job) => (job.done_pages as number) > 0);
    expect(working.status).toBe('processing'); // caught in the middle, or the test means nothing

    const cancel = await t.http.post(`/api/v1/jobs/${preview.job_id}/cancel`).set(c.auth);
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ status: 'cancelled' });
    const job = await waitForJob(t.http, c.key.key, preview.job_id);

    // The worker names the pages read when it saw the cancel that finished after it: not
    // delivered; every page before them delivered, none after them read.
    const ledger = await ledgerOf(preview.job_id);
    const refund = ledger.find((r) => r.type === 'refund')!;
    const seen =
      /cancel seen as pages? (\d+)(?:–(\d+))? of long\.pdf read: finished after the cancel, not delivered$/.exec(
        refund.description,
      );
    expect(seen).not.toBeNull();
    const firstDropped = Number(seen![1]);
    const lastRead = Number(seen![2] ?? seen![1]);
    const delivered = job.delivered_pages as number;
    expect(delivered).toBe(firstDropped - 1);
    // It stopped within one answer from the database: a few pages of text read in a millisecond
    // each, where polling every half second read hundreds.
    process.stdout.write(
      `cancel mid-file: ${delivered} pages delivered, ${lastRead - delivered} read after the last answer\n`,
    );
    expect(lastRead - delivered).toBeLessThan(25);
    expect(delivered).toBeLessThan(total);
    const pages = (await t.http.get(`/api/v1/jobs/${preview.job_id}/pages`).set(c.auth).expect(200)).body.pages as {
      page: number;
      source: string;
    }[];
    expect(pages.map((p) => p.page)).toEqual(Array.from({ length: delivered }, (_, i) => i + 1));
    const markdown = (await t.http.get(`/api/v1/jobs/${preview.job_id}/download`).set(c.auth).expect(200)).text;
    const found = [...markdown.matchAll(/Page (\d+) opens\./g)].map((m) => Number(m[1]));
    expect(found).toEqual(pages.map((p) => p.page));

    // Paid: the delivered pages past the free ones. Free pages: only those of delivered pages are used.
    const paid = Math.max(0, delivered - 100) * BASIC_PAGE_POINTS;
    expect(job).toMatchObject({
      status: 'cancelled',
      refunded_points: preview.cost.points - paid,
      refunded_pages: total - delivered,
    });
    expect(ledger.reduce((sum, r) => sum + r.amount, paid)).toBe(0); // what the user paid is `paid`
    await expect(c.freePages()).resolves.toMatchObject({ used: Math.min(delivered, 100) });
    await c.agrees();
  });

  it('a cancel between files delivers the files finished before it, and starts no other', async () => {
    const c = await customer('cancel-between', 0); // every page paid, so the refund names where the cancel was seen
    // Files read whole, a page each: the cancel comes while one is read, or between two.
    const count = 150;
    const name = (n: number) => `note-${String(n).padStart(3, '0')}.docx`;
    const files = await Promise.all(
      Array.from({ length: count }, async (_, i) => ({
        name: name(i + 1),
        content: await makeDocx([`Note ${i + 1} says hello.`]),
      })),
    );
    const preview = await start(c.key, files);
    expect(preview.cost).toMatchObject({ pages: count, free_pages_used: 0, points: count * BASIC_PAGE_POINTS });
    const working = await waitUntil(c.key, preview.job_id, (job) => (job.done_files as number) > 0);
    expect(working.status).toBe('processing');
    expect(working.done_files).toBeLessThan(count - 10); // caught early enough to mean something
    const cancel = await t.http.post(`/api/v1/jobs/${preview.job_id}/cancel`).set(c.auth);
    expect(cancel.status).toBe(200);
    const job = await waitForJob(t.http, c.key.key, preview.job_id);

    // The file at which the worker saw the cancel: not started, or read but finished after it.
    const refund = (await ledgerOf(preview.job_id)).find((r) => r.type === 'refund')!;
    const seen =
      /cancel seen (?:before note-(\d+)\.docx was started|as note-(\d+)\.docx was read; it finished after the cancel and is not delivered)$/.exec(
        refund.description,
      );
    expect(seen).not.toBeNull();
    const at = Number(seen![1] ?? seen![2]);
    const markdown = (await t.http.get(`/api/v1/jobs/${preview.job_id}/download`).set(c.auth).expect(200)).text;
    const delivered = [...markdown.matchAll(/Note (\d+) says hello\./g)].map((m) => Number(m[1]));
    // Every file before it delivered, in order; it and the files after it not.
    expect(delivered).toEqual(Array.from({ length: at - 1 }, (_, i) => i + 1));
    expect(job).toMatchObject({
      status: 'cancelled',
      delivered_pages: at - 1,
      refunded_pages: count - (at - 1),
      refunded_points: (count - (at - 1)) * BASIC_PAGE_POINTS,
    });
    await c.agrees();
  });

  it('uploads and confirms through one key at once all succeed: none deadlocks on the key and the balance', async () => {
    const c = await customer('upload-confirm', 0);
    const pdf = await makePdf(['One page, uploaded and confirmed while others are']);
    // Each lane uploads then confirms at once, so uploads (which lock the user for its free pages)
    // and confirms (which lock the key for its daily quota) of one key overlap.
    const statuses = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const res = await upload(t.http, c.key.key, [{ name: 'one.pdf', content: pdf }], { ocr_model: 'basic' });
        const confirm = await t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set(c.auth);
        return `${res.status}/${confirm.status}`;
      }),
    );
    expect(statuses).toEqual(Array.from({ length: 12 }, () => '201/200'));
  });

  async function waitUntil(key: TestKey, jobId: string, ready: (job: Record<string, unknown>) => boolean) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const job = (await t.http.get(`/api/v1/jobs/${jobId}`).set('X-API-Key', key.key)).body as Record<string, unknown>;
      if (ready(job) || ['done', 'error', 'cancelled'].includes(job.status as string)) return job;
      if (Date.now() > deadline) throw new Error(`job still ${String(job.status)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
});
