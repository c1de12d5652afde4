import { getQueueToken } from '@nestjs/bullmq';
import { LedgerService } from '@docconv/billing';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { createKey, signup, type TestKey, type TestUser } from './support/accounts';
import { makePdf, makeTextPng } from './support/fixtures';
import { upload, waitForJob } from './support/jobs';
import { createTestApp, type TestApp } from './support/test-app';

const PREVIEW_FIELDS = {
  job_id: 'string',
  status: 'string',
  file_type: 'string',
  total_pages: 'number',
  total_files: 'number',
  media_duration_seconds: 'number',
  docling_refinement: 'boolean',
  docling_refinement_pages: 'number',
  ocr_model: 'string',
  ocr_engine: 'string',
  has_media: 'boolean',
  cost: 'object',
  balance: 'number',
};
const COST_FIELDS = {
  pages: 'number',
  image_count: 'number',
  audio_seconds: 'number',
  video_seconds: 'number',
  ocr_model: 'string',
  free_pages_used: 'number',
  points: 'number',
  usd: 'string',
};
const JOB_FIELDS: Record<string, string | string[]> = {
  job_id: 'string',
  status: 'string',
  ocr_model: 'string',
  ocr_engine: 'string',
  file_type: 'string',
  filename: 'string',
  total_pages: 'number',
  done_pages: 'number',
  total_files: 'number',
  done_files: 'number',
  media_duration_seconds: 'number',
  done_media_seconds: 'number',
  cost_points: 'number',
  error_log: ['string', 'null'],
  created_at: 'string',
  finished_at: ['string', 'null'],
  downloadable: 'boolean',
  xlsx_basic_converted: 'boolean',
  xlsx_advanced_converted: 'boolean',
  xlsx_advanced_status: ['string', 'null'],
  xlsx_advanced_job_id: ['string', 'null'],
  xlsx_advanced_refundable: 'boolean',
  xlsx_advanced_recovery_notes: ['string', 'null'],
  refundable: 'boolean',
  retry_count: 'number',
  quoted_points: 'number',
  conversion_units: 'number',
};

function typeOf(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

function expectShape(body: Record<string, unknown>, shape: Record<string, string | string[]>): void {
  for (const [field, type] of Object.entries(shape)) {
    const allowed = Array.isArray(type) ? type : [type];
    expect({ field, allowed: allowed.includes(typeOf(body[field])) }).toEqual({ field, allowed: true });
  }
}

describe('job lifecycle', () => {
  let t: TestApp;
  let ledger: LedgerService;
  let db: DataSource;
  let user: TestUser;
  let key: TestKey;

  const grant = (userId: string, points: number) =>
    ledger.post({
      userId,
      type: 'grant',
      points,
      description: 'test funds',
      idempotencyKey: `grant:${userId}:${Math.random()}`,
    });
  const auth = () => ({ 'X-API-Key': key.key });

  beforeAll(async () => {
    t = await createTestApp();
    ledger = t.app.get(LedgerService);
    db = t.app.get(DataSource);
    user = await signup(t.http, 'jobs');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    await grant(user.userId, 100_000);
  });
  afterAll(() => t.close());

  it('upload a PDF → spec preview → confirm → done → download the Markdown', async () => {
    const pdf = await makePdf([
      'Quarterly report of the northern region',
      'Revenue grew by eleven percent',
      'Outlook remains stable',
    ]);
    const res = await upload(t.http, key.key, [{ name: 'Quarterly Report.pdf', content: pdf }]);
    expect(res.status).toBe(201);
    expectShape(res.body, PREVIEW_FIELDS);
    expectShape(res.body.cost, COST_FIELDS);
    expect(res.body).toMatchObject({
      status: 'pending',
      file_type: 'pdf',
      total_pages: 3,
      total_files: 1,
      media_duration_seconds: 0,
      docling_refinement: false,
      docling_refinement_pages: 0,
      ocr_model: 'premium',
      ocr_engine: 'tesseract',
      has_media: false,
      cost: {
        pages: 3,
        image_count: 0,
        audio_seconds: 0,
        video_seconds: 0,
        ocr_model: 'premium',
        free_pages_used: 0,
        points: 90,
        usd: '$0.09',
      },
    });
    const before = res.body.balance as number;

    const confirmed = await t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set(auth()).expect(200);
    expect(confirmed.body).toEqual({ job_id: res.body.job_id, status: 'queued', remaining_points: before - 90 });

    const done = await waitForJob(t.http, key.key, res.body.job_id);
    expectShape(done, JOB_FIELDS);
    expect(done).toMatchObject({
      status: 'done',
      cost_points: 90,
      conversion_units: 3,
      done_pages: 3,
      done_files: 1,
      downloadable: true,
      refundable: false,
    });
    expect(done.finished_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);

    const download = await t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set(auth()).expect(200);
    expect(download.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(download.headers['content-disposition']).toBe('attachment; filename="Quarterly Report.md"');
    for (const line of [
      'Quarterly report of the northern region',
      'Revenue grew by eleven percent',
      'Outlook remains stable',
    ]) {
      expect(download.text).toContain(line);
    }
    const account = await t.http.get('/api/v1/account').set(auth()).expect(200);
    expect(account.body.points_balance).toBe(before - 90);
  });

  it('a Markdown file costs 0 and comes back unchanged, as file_type mixed', async () => {
    const markdown = '# Notes\n\n- café ☕\n- 한국어 텍스트\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';
    const res = await upload(t.http, key.key, [{ name: 'notes.md', content: markdown }]).then((r) => r);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ file_type: 'mixed', total_pages: 0, cost: { points: 0, usd: '$0.00' } });
    await t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set(auth()).expect(200);
    await waitForJob(t.http, key.key, res.body.job_id);
    const download = await t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set(auth()).expect(200);
    expect(download.text).toBe(markdown);
  });

  it('a web page, a text file and an e-mail are priced in pages of 10,000 readable characters; an RTF in printed pages', async () => {
    const words = (count: number) => 'word '.repeat(count).trim(); // 5 characters a word, less the last space
    const article = `<html><head><style>${'x'.repeat(50_000)}</style></head><body><nav>Home</nav><p>${words(1_900)}</p></body></html>`;
    const email = ['From: a@example.com', 'To: b@example.com', 'Subject: Long', '', words(4_100)].join('\r\n');
    const cases: [string, string, number][] = [
      ['article.html', article, 1], // its article, 9,499 readable characters: the style and the menu not counted
      ['notes.txt', words(2_001), 2], // 10,004
      ['thread.eml', email, 3], // 20,499
      ['letter.rtf', `{\\rtf1\\ansi ${words(1_300)}}`, 3], // 6,499 characters: printed pages of 3,000
    ];
    for (const [name, content, pages] of cases) {
      const res = await upload(t.http, key.key, [{ name, content }], { ocr_model: 'premium' });
      expect([name, res.status, res.body.total_pages, res.body.cost?.points]).toEqual([name, 201, pages, pages * 30]);
    }
  });

  it('an image is read by OCR; several files give one Markdown with a heading per file', async () => {
    const png = await makeTextPng('Invoice total 4711 EUR');
    const res = await upload(
      t.http,
      key.key,
      [
        { name: 'scan.png', content: png },
        { name: 'readme.md', content: 'Plain text part\n' },
      ],
      { relative_paths: JSON.stringify(['box/scan.png', 'box/readme.md']), ocr_model: 'basic' },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ file_type: 'mixed', total_files: 2, cost: { image_count: 1, points: 10 } });
    await t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set(auth()).expect(200);
    const done = await waitForJob(t.http, key.key, res.body.job_id);
    expect(done.status).toBe('done');
    const text = (await t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set(auth())).text;
    expect(text).toContain('## box/scan.png');
    expect(text).toContain('## box/readme.md');
    expect(text.indexOf('## box/scan.png')).toBeLessThan(text.indexOf('## box/readme.md'));
    expect(text).toMatch(/Invoice total 4711 EUR/);
    expect(text).toContain('Plain text part');
  });

  it('validates every form field and names it', async () => {
    const pdf = await makePdf(['x']);
    const cases: [Record<string, string>, string][] = [
      [{ ocr_model: 'deluxe' }, 'ocr_model'],
      [{ ocr_engine: 'magic' }, 'ocr_engine'],
      [{ ocr_model: 'basic', ocr_engine: 'rapidocr' }, 'ocr_engine'],
      [{ dpi: '71' }, 'dpi'],
      [{ dpi: '601' }, 'dpi'],
      [{ dpi: '300.5' }, 'dpi'],
      [{ columns: '["a", 3]' }, 'columns'],
      [{ columns: '[broken' }, 'columns'],
      [{ relative_paths: '["a.pdf", "b.pdf"]' }, 'relative_paths'],
      [{ relative_paths: '["../etc/passwd"]' }, 'relative_paths'],
      [{ docling_refinement: 'maybe' }, 'docling_refinement'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [fields, field] of cases) {
      const res = await upload(t.http, key.key, [{ name: 'a.pdf', content: pdf }], fields);
      expect({ fields, status: res.status, code: res.body.code }).toEqual({
        fields,
        status: 400,
        code: 'validation_failed',
      });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const easy = await upload(t.http, key.key, [{ name: 'a.pdf', content: pdf }], { ocr_engine: 'easyocr' });
    expect(easy.status).toBe(400);
    expect(easy.body).toMatchObject({
      code: 'engine_unavailable',
      available_engines: expect.arrayContaining(['tesseract']),
    });
    expect(easy.body.available_engines).not.toContain('easyocr');
    const refine = await upload(t.http, key.key, [{ name: 'a.pdf', content: pdf }], { docling_refinement: 'true' });
    expect(refine.body.code).toBe('refinement_unavailable');
    const ok = await upload(t.http, key.key, [{ name: 'a.pdf', content: pdf }], {
      columns: 'Name, Amount ,Date',
      dpi: '150',
    });
    expect(ok.status).toBe(201);
  });

  it('refuses bad files with a clear 400 and stores nothing', async () => {
    const png = await makeTextPng('x');
    const cases: [{ name: string; content: Buffer | string }[], RegExp][] = [
      [[{ name: 'picture.pdf', content: png }], /named \.pdf but contains PNG/],
      [[{ name: 'old.doc', content: Buffer.from('d0cf11e0a1b11ae1' + '0'.repeat(1008), 'hex') }], /damaged compound/],
      [
        [{ name: 'program.exe', content: Buffer.from('MZ\x90\x00\x03' + '\x00'.repeat(200), 'binary') }],
        /not supported/,
      ],
      [[{ name: 'broken.pdf', content: '%PDF-1.7\n%garbage that is not a pdf' }], /not a readable PDF/],
      [[{ name: 'latin1.md', content: Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) }], /not UTF-8/],
    ];
    for (const [files, message] of cases) {
      const res = await upload(t.http, key.key, files);
      expect({ name: files[0].name, status: res.status }).toEqual({ name: files[0].name, status: 400 });
      expect(res.body.code).toBe('unsupported_format');
      expect(res.body.detail).toMatch(message);
    }
    const none = await t.http.post('/api/v1/jobs/upload').set(auth()).field('ocr_model', 'basic');
    expect(none.status).toBe(400);
    expect(none.body.errors[0].field).toBe('files');
    const empty = await upload(t.http, key.key, [{ name: 'empty.pdf', content: Buffer.alloc(0) }]);
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toMatch(/empty/);
    const notMultipart = await t.http.post('/api/v1/jobs/upload').set(auth()).send({ files: [] });
    expect(notMultipart.status).toBe(400);
  });

  it('enforces the size and page limits with 413', async () => {
    const limited = await createTestApp({}, { ...process.env, MAX_UPLOAD_BYTES: '50000', MAX_PAGES_PER_UPLOAD: '2' });
    try {
      const big = await upload(limited.http, key.key, [{ name: 'big.md', content: 'x'.repeat(200_000) }]);
      expect(big.status).toBe(413);
      expect(big.body.code).toBe('payload_too_large');
      const pages = await upload(limited.http, key.key, [
        { name: 'three.pdf', content: await makePdf(['1', '2', '3']) },
      ]);
      expect(pages.status).toBe(413);
      expect(pages.body.detail).toMatch(/3 pages; the limit is 2/);
    } finally {
      await limited.close();
    }
  });

  it('confirm: 402 with the amount and balance, 400 when not pending, 404 for another user, 429 over the quota', async () => {
    const poor = await signup(t.http, 'poor');
    const poorKey = await createKey(t.http, poor, { rate_limit_rpm: 1000, daily_quota: 100 });
    await grant(poor.userId, 40);
    const pdf = await makePdf(['a', 'b']);
    const job = (await upload(t.http, poorKey.key, [{ name: 'two.pdf', content: pdf }])).body;
    const short = await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set('X-API-Key', poorKey.key);
    expect(short.status).toBe(402);
    expect(short.body).toMatchObject({ code: 'insufficient_credits', needed: 60, balance: 40 });
    expect(short.body.detail).toMatch(/60 points but the balance is 40/);

    await grant(poor.userId, 100);
    await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set('X-API-Key', poorKey.key).expect(200);
    const again = await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set('X-API-Key', poorKey.key);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('invalid_state');

    // 60 spent today; another 60 would pass the quota of 100.
    const second = (await upload(t.http, poorKey.key, [{ name: 'two.pdf', content: pdf }])).body;
    const quota = await t.http.post(`/api/v1/jobs/${second.job_id}/confirm`).set('X-API-Key', poorKey.key);
    expect(quota.status).toBe(429);
    expect(quota.body.code).toBe('daily_quota_exceeded');
    expect(Number(quota.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.http.get('/api/v1/account').set('X-API-Key', poorKey.key)).body.points_balance).toBe(80);
    expect((await t.http.get(`/api/v1/jobs/${second.job_id}`).set('X-API-Key', poorKey.key)).body.status).toBe(
      'pending',
    );
    await t.http
      .patch(`/api/v1/keys/${poorKey.id}`)
      .set('Authorization', `Bearer ${poor.jwt}`)
      .send({ daily_quota: null })
      .expect(200);
    await t.http.post(`/api/v1/jobs/${second.job_id}/confirm`).set('X-API-Key', poorKey.key).expect(200);

    await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set(auth()).expect(404);
    await t.http.get(`/api/v1/jobs/${job.job_id}`).set(auth()).expect(404);
    await t.http.get(`/api/v1/jobs/not-a-uuid`).set(auth()).expect(404);

    const reader = await createKey(t.http, poor, { scopes: ['jobs:read'] });
    const denied = await t.http.post(`/api/v1/jobs/${job.job_id}/cancel`).set('X-API-Key', reader.key);
    expect(denied.status).toBe(403);
    await t.http.get(`/api/v1/jobs/${job.job_id}`).set('X-API-Key', reader.key).expect(200);
    // A session acts for its user with every scope: the owner's token reads the job, another user's does not.
    const jwt = await t.http.get(`/api/v1/jobs/${job.job_id}`).set('Authorization', `Bearer ${poor.jwt}`);
    expect(jwt.status).toBe(200);
    expect(jwt.body.job_id).toBe(job.job_id);
    const stranger = await signup(t.http, 'stranger');
    await t.http.get(`/api/v1/jobs/${job.job_id}`).set('Authorization', `Bearer ${stranger.jwt}`).expect(404);
  });

  it('200 concurrent confirms of jobs costing twice the balance: the ledger holds', async () => {
    const rich = await signup(t.http, 'race');
    const richKey = await createKey(t.http, rich, { rate_limit_rpm: 100_000 });
    await grant(rich.userId, 3_000);
    const pdf = await makePdf(['one page']);
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const res = await upload(t.http, richKey.key, [{ name: `p${i}.pdf`, content: pdf }]);
      expect(res.body.cost.points).toBe(30);
      ids.push(res.body.job_id);
    }
    const results = await Promise.all(
      ids.map((id) => t.http.post(`/api/v1/jobs/${id}/confirm`).set('X-API-Key', richKey.key)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s !== 200 && s !== 402)).toEqual([]);
    const won = statuses.filter((s) => s === 200).length;
    expect(won).toBe(100);
    const balance = (await t.http.get('/api/v1/account').set('X-API-Key', richKey.key)).body.points_balance;
    expect(balance).toBe(3_000 - won * 30);
    const [{ sum, min }] = await db.query<{ sum: number; min: number }[]>(
      'SELECT sum(amount)::int AS sum, min(balance_after)::int AS min FROM credit_transactions WHERE user_id = $1',
      [rich.userId],
    );
    expect(sum).toBe(balance);
    expect(min).toBeGreaterThanOrEqual(0);

    // The hundred paid jobs are cancelled at once: those not yet taken are refunded in full,
    // the others answer 400, and the ledger still equals the balance. (It also keeps the
    // shared worker from working through them while the tests below wait for it.)
    const paid = ids.filter((_, i) => statuses[i] === 200);
    const cancels = await Promise.all(
      paid.map((id) => t.http.post(`/api/v1/jobs/${id}/cancel`).set('X-API-Key', richKey.key)),
    );
    expect(cancels.filter((r) => r.status !== 200 && r.status !== 400)).toEqual([]);
    const refunded = cancels.filter((r) => r.status === 200);
    for (const r of refunded) expect(r.body).toMatchObject({ status: 'cancelled', refunded_points: 30 });
    const after = (await t.http.get('/api/v1/account').set('X-API-Key', richKey.key)).body.points_balance;
    expect(after).toBe(balance + refunded.length * 30);
    const [ledgerAfter] = await db.query<{ sum: number; refunds: number }[]>(
      `SELECT sum(amount)::int AS sum, count(*) FILTER (WHERE type = 'refund')::int AS refunds
         FROM credit_transactions WHERE user_id = $1`,
      [rich.userId],
    );
    expect(ledgerAfter).toEqual({ sum: after, refunds: refunded.length });
  });

  it('the same job confirmed 20 times at once is charged once', async () => {
    const job = (await upload(t.http, key.key, [{ name: 'once.pdf', content: await makePdf(['once']) }])).body;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set(auth())),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(19);
    const [{ count }] = await db.query<{ count: number }[]>(
      "SELECT count(*)::int AS count FROM credit_transactions WHERE job_id = $1 AND type = 'spend'",
      [job.job_id],
    );
    expect(count).toBe(1);
  });

  it('cancel: a pending job charges nothing, a queued job is refunded in full, a done job is 400', async () => {
    const pdf = await makePdf(['cancel me']);
    const pending = (await upload(t.http, key.key, [{ name: 'p.pdf', content: pdf }])).body;
    const cancelled = await t.http.post(`/api/v1/jobs/${pending.job_id}/cancel`).set(auth()).expect(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cost_points: 0, refunded_points: 0 });
    await t.http.post(`/api/v1/jobs/${pending.job_id}/confirm`).set(auth()).expect(400);

    // Stop the worker from taking it: a job queued but not yet taken is what cancel refunds.
    const queued = (await upload(t.http, key.key, [{ name: 'q.pdf', content: pdf }])).body;
    const balanceBefore = (await t.http.get('/api/v1/account').set(auth())).body.points_balance;
    await db.query(
      `UPDATE jobs SET status = 'queued', confirmed_at = now(), cost_points = quoted_points WHERE id = $1`,
      [queued.job_id],
    );
    await ledger.post({
      userId: user.userId,
      apiKeyId: key.id,
      jobId: queued.job_id,
      type: 'spend',
      points: 30,
      description: 'confirm',
      idempotencyKey: `job:${queued.job_id}:confirm`,
    });
    const refunded = await t.http.post(`/api/v1/jobs/${queued.job_id}/cancel`).set(auth()).expect(200);
    expect(refunded.body).toMatchObject({ status: 'cancelled', cost_points: 30, refunded_points: 30 });
    expect((await t.http.get('/api/v1/account').set(auth())).body.points_balance).toBe(balanceBefore);

    const done = (await upload(t.http, key.key, [{ name: 'd.md', content: '# d\n' }])).body;
    await t.http.post(`/api/v1/jobs/${done.job_id}/confirm`).set(auth()).expect(200);
    await waitForJob(t.http, key.key, done.job_id);
    const late = await t.http.post(`/api/v1/jobs/${done.job_id}/cancel`).set(auth());
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('invalid_state');
  });

  it('an error job: 20 retries at once re-dispatch once; 20 refunds at once refund once', async () => {
    const png = await makeTextPng('truncated');
    const truncated = png.subarray(0, Math.floor(png.length / 2));
    const job = (await upload(t.http, key.key, [{ name: 'cut.png', content: truncated }])).body;
    await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set(auth()).expect(200);
    const failed = await waitForJob(t.http, key.key, job.job_id);
    expect(failed).toMatchObject({
      status: 'error',
      refundable: true,
      retry_count: 0,
      cost_points: 30,
      downloadable: false,
    });
    expect(failed.error_log).toMatch(/cut\.png could not be read/);
    await t.http.get(`/api/v1/jobs/${job.job_id}/download`).set(auth()).expect(400);

    // Hold the queue so the retried job cannot fail again while the 20 requests are in flight.
    const parseQueue = t.app.get<Queue>(getQueueToken('parse'), { strict: false });
    await parseQueue.pause();
    let retries;
    try {
      retries = await Promise.all(
        Array.from({ length: 20 }, () =>
          t.http.post(`/api/v1/jobs/${job.job_id}/action`).set(auth()).send({ action: 'retry' }),
        ),
      );
    } finally {
      await parseQueue.resume();
    }
    expect(retries.filter((r) => r.status === 200).map((r) => r.body)).toEqual([
      { job_id: job.job_id, status: 'queued' },
    ]);
    expect(retries.filter((r) => r.status === 400)).toHaveLength(19);
    const again = await waitForJob(t.http, key.key, job.job_id);
    expect(again).toMatchObject({ status: 'error', retry_count: 1, refundable: true });

    const balanceBefore = (await t.http.get('/api/v1/account').set(auth())).body.points_balance;
    const refunds = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.http.post(`/api/v1/jobs/${job.job_id}/action`).set(auth()).send({ action: 'refund' }),
      ),
    );
    expect(refunds.filter((r) => r.status === 200).map((r) => r.body)).toEqual([{ refunded: true, points: 30 }]);
    expect(refunds.filter((r) => r.status === 400)).toHaveLength(19);
    expect((await t.http.get('/api/v1/account').set(auth())).body.points_balance).toBe(balanceBefore + 30);
    const after = (await t.http.get(`/api/v1/jobs/${job.job_id}`).set(auth())).body;
    expect(after).toMatchObject({ status: 'error', refundable: false, refunded_points: 30 });
    const second = await t.http.post(`/api/v1/jobs/${job.job_id}/action`).set(auth()).send({ action: 'refund' });
    expect(second.status).toBe(400);
    const badAction = await t.http.post(`/api/v1/jobs/${job.job_id}/action`).set(auth()).send({ action: 'explode' });
    expect(badAction.body.errors[0].field).toBe('action');
  });

  it('title changes in any state; titles of 0 or 201 characters are refused', async () => {
    const job = (await upload(t.http, key.key, [{ name: 'x.md', content: 'x\n' }])).body;
    const renamed = await t.http
      .patch(`/api/v1/jobs/${job.job_id}/title`)
      .set(auth())
      .send({ title: '보고서 2026' })
      .expect(200);
    expect(renamed.body).toMatchObject({ filename: '보고서 2026', status: 'pending' });
    await t.http.patch(`/api/v1/jobs/${job.job_id}/title`).set(auth()).send({ title: '' }).expect(400);
    await t.http
      .patch(`/api/v1/jobs/${job.job_id}/title`)
      .set(auth())
      .send({ title: 'x'.repeat(201) })
      .expect(400);
    await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set(auth()).expect(200);
    await waitForJob(t.http, key.key, job.job_id);
    const download = await t.http.get(`/api/v1/jobs/${job.job_id}/download`).set(auth()).expect(200);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="___ 2026.md"; filename*=UTF-8''${encodeURIComponent('보고서 2026.md')}`,
    );
  });

  it('lists jobs newest first with a status filter and a cursor', async () => {
    const lister = await signup(t.http, 'lister');
    const listerKey = await createKey(t.http, lister, { rate_limit_rpm: 1000 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await upload(t.http, listerKey.key, [{ name: `${i}.md`, content: `${i}\n` }])).body.job_id);
    await t.http.post(`/api/v1/jobs/${ids[0]}/cancel`).set('X-API-Key', listerKey.key).expect(200);
    const page1 = await t.http.get('/api/v1/jobs?limit=2').set('X-API-Key', listerKey.key).expect(200);
    expect(page1.body.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([ids[4], ids[3]]);
    const page2 = await t.http
      .get(`/api/v1/jobs?limit=2&cursor=${page1.body.next_cursor}`)
      .set('X-API-Key', listerKey.key);
    expect(page2.body.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([ids[2], ids[1]]);
    const page3 = await t.http
      .get(`/api/v1/jobs?limit=2&cursor=${page2.body.next_cursor}`)
      .set('X-API-Key', listerKey.key);
    expect(page3.body).toEqual({ jobs: [expect.objectContaining({ job_id: ids[0] })], next_cursor: null });
    const cancelled = await t.http.get('/api/v1/jobs?status=cancelled').set('X-API-Key', listerKey.key);
    expect(cancelled.body.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([ids[0]]);
    await t.http.get('/api/v1/jobs?status=bogus').set('X-API-Key', listerKey.key).expect(400);
    await t.http.get('/api/v1/jobs?cursor=bogus').set('X-API-Key', listerKey.key).expect(400);
    await t.http.get('/api/v1/jobs?limit=101').set('X-API-Key', listerKey.key).expect(400);
  });

  it('free pages: basic uploads share 100 per month, reserved at upload and given back on cancel', async () => {
    const thrifty = await signup(t.http, 'free');
    const thriftyKey = await createKey(t.http, thrifty, { rate_limit_rpm: 1000 });
    const freePages = async () =>
      (await t.http.get('/api/v1/account').set('X-API-Key', thriftyKey.key).expect(200)).body.free_pages;
    const now = new Date();
    const resetsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 19);
    await expect(freePages()).resolves.toEqual({ monthly: 100, used: 0, left: 100, resets_at: resetsAt });
    const pdf = await makePdf(Array.from({ length: 60 }, (_, i) => `page ${i}`));
    const [a, b] = await Promise.all(
      [1, 2].map(() => upload(t.http, thriftyKey.key, [{ name: 'sixty.pdf', content: pdf }], { ocr_model: 'basic' })),
    );
    const used = [a.body.cost.free_pages_used, b.body.cost.free_pages_used].sort((x: number, y: number) => x - y);
    expect(used).toEqual([40, 60]);
    await expect(freePages()).resolves.toMatchObject({ used: 100, left: 0 });
    const first = a.body.cost.free_pages_used === 60 ? a.body : b.body;
    await t.http.post(`/api/v1/jobs/${first.job_id}/cancel`).set('X-API-Key', thriftyKey.key).expect(200);
    await expect(freePages()).resolves.toMatchObject({ used: 40, left: 60 });
    const c = await upload(t.http, thriftyKey.key, [{ name: 'sixty.pdf', content: pdf }], { ocr_model: 'basic' });
    expect(c.body.cost).toMatchObject({ free_pages_used: 60, points: 0 });
    const premium = await upload(t.http, thriftyKey.key, [{ name: 'sixty.pdf', content: pdf }]);
    expect(premium.body.cost).toMatchObject({ free_pages_used: 0, points: 1800 });
  });

  it('GET /pricing needs no credential', async () => {
    const res = await t.http.get('/api/v1/pricing').expect(200);
    expect(res.body).toEqual({
      currency: 'milli-USD',
      free_pages_per_month: t.config.pricing.freePagesPerMonth,
      basic: { page: 10, image: 10 },
      premium: { page: 30, image: 30 },
      audio_second: 0.1,
      video_second: 0.2,
      docling_refinement_page: 3,
      markdown_file: 0,
      text_page_characters: 10_000,
      printed_page_characters: 3_000,
      conversions: { xlsx_basic_unit: 1, xlsx_advanced_unit: 3, docx: 0, pptx: 0, hwpx: 0 },
      notes: [
        expect.stringMatching(/^Free pages/),
        expect.stringMatching(/^Audio/),
        expect.stringMatching(/^A web page, plain-text file, e-mail body or EPUB book is priced as a page per 10,000/),
        expect.stringMatching(/^A conversion unit/),
      ],
      payments: {
        available: false,
        provider: 'stripe',
        currency: 'USD',
        min_usd: 5,
        max_usd: 500,
        points_per_usd: 1000,
      },
    });
  });
});
