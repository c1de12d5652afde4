import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { Workbook } from 'exceljs';
import { DataSource } from 'typeorm';
import { createKey, signup, type TestKey } from './support/accounts';
import { makePdf } from './support/fixtures';
import { binary, pathOf, upload, waitForJob } from './support/jobs';
import { createTestApp, type TestApp } from './support/test-app';

interface Conversion {
  download_url: string;
  format: string;
  storage_path: string;
}

describe('conversions of a finished job (spec 4.8, 4.9)', () => {
  let t: TestApp;
  let key: TestKey;
  let userId: string;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    const user = await signup(t.http, 'convert');
    userId = user.userId;
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    db = t.app.get(DataSource);
    await db.query('UPDATE users SET points_balance = 1000000 WHERE id = $1', [userId]);
  });
  afterAll(() => t.close());

  const balance = async () =>
    Number((await db.query('SELECT points_balance FROM users WHERE id = $1', [userId]))[0].points_balance);
  const spends = (jobId: string) =>
    db.query<{ points: string; description: string }[]>(
      "SELECT -amount AS points, description FROM credit_transactions WHERE job_id = $1 AND type = 'spend' ORDER BY id",
      [jobId],
    );

  /** A done job from a PDF of `pages` pages (premium model, so no free pages blur the sums). */
  async function finishedJob(pages: string[]): Promise<string> {
    const res = await upload(t.http, key.key, [{ name: 'report.pdf', content: await makePdf(pages) }], {
      ocr_model: 'premium',
    });
    expect(res.status).toBe(201);
    await t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    const job = await waitForJob(t.http, key.key, res.body.job_id as string, ['done', 'error']);
    expect(job.status).toBe('done');
    return res.body.job_id as string;
  }
  const convert = (jobId: string, format: string) =>
    t.http.post(`/api/v1/jobs/${jobId}/convert`).set('X-API-Key', key.key).send({ format });
  const job = async (jobId: string) =>
    (await t.http.get(`/api/v1/jobs/${jobId}`).set('X-API-Key', key.key).expect(200)).body as Record<string, unknown>;

  it('charges the first XLSX Basic of a 12-page job 12 points, the second nothing, same file', async () => {
    const jobId = await finishedJob(Array.from({ length: 12 }, (_, i) => `Page ${i + 1} of the ledger.`));
    const before = await balance();
    const first = await convert(jobId, 'xlsx_basic');
    expect(first.status).toBe(200);
    const body = first.body as Conversion;
    expect(body).toMatchObject({ format: 'xlsx_basic', storage_path: `results/${jobId}/result.basic.xlsx` });
    // Without PUBLIC_BASE_URL a path-absolute link, carrying its own credential.
    expect(body.download_url).toMatch(/^\/api\/v1\/files\/results\//);
    expect(new URL(body.download_url, 'http://localhost').searchParams.get('token')).toBeTruthy();
    expect(await balance()).toBe(before - 12);

    const second = await convert(jobId, 'xlsx_basic');
    expect(second.status).toBe(200);
    expect(second.body.storage_path).toBe(body.storage_path);
    expect(await balance()).toBe(before - 12);
    expect((await spends(jobId)).filter((s) => /XLSX Basic/.test(s.description))).toHaveLength(1);
    expect(await job(jobId)).toMatchObject({ xlsx_basic_converted: true, xlsx_advanced_converted: false });

    // The signed URL serves the workbook with no other credential; the API key route serves it too.
    const file = await t.http.get(pathOf(body.download_url)).buffer(true).parse(binary).expect(200);
    expect(file.body.subarray(0, 2).toString()).toBe('PK');
    const viaKey = await t.http
      .get(`/api/v1/jobs/${jobId}/download?format=xlsx_basic`)
      .set('X-API-Key', key.key)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(Buffer.compare(viaKey.body as Buffer, file.body as Buffer)).toBe(0);
  });

  it('ten simultaneous first requests charge once and agree on the file', async () => {
    const jobId = await finishedJob(['One', 'Two', 'Three']);
    const before = await balance();
    const answers = await Promise.all(Array.from({ length: 10 }, () => convert(jobId, 'xlsx_basic')));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.storage_path)).size).toBe(1);
    expect(await balance()).toBe(before - 3);
    expect(await spends(jobId)).toHaveLength(2); // the confirm and one conversion
  });

  it('DOCX, PPTX and HWPX are free; unknown formats and unfinished jobs are refused; short credits are 402', async () => {
    const jobId = await finishedJob(['Free formats']);
    const before = await balance();
    for (const format of ['docx', 'pptx', 'hwpx']) {
      const res = await convert(jobId, format);
      expect(res.status).toBe(200);
      expect(res.body.storage_path).toBe(`results/${jobId}/result.${format}`);
    }
    expect(await balance()).toBe(before);
    const hwpx = await t.http
      .get(`/api/v1/jobs/${jobId}/download?format=hwpx`)
      .set('X-API-Key', key.key)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(hwpx.headers['content-type']).toBe('application/hwp+zip');
    expect(hwpx.headers['content-disposition']).toMatch(/\.hwpx/);
    // An OWPML package names its media type in a first, uncompressed entry.
    expect((hwpx.body as Buffer).subarray(30, 38).toString()).toBe('mimetype');
    expect((hwpx.body as Buffer).includes(Buffer.from('application/hwp+zip'))).toBe(true);

    const unknown = await convert(jobId, 'odt');
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('validation_failed');

    const pending = await upload(t.http, key.key, [{ name: 'p.pdf', content: await makePdf(['x']) }]);
    const notDone = await convert(pending.body.job_id as string, 'docx');
    expect(notDone.status).toBe(400);
    expect(notDone.body.detail).toMatch(/pending; it can be converted once it is done/);

    await db.query('UPDATE users SET points_balance = 0 WHERE id = $1', [userId]);
    try {
      const broke = await convert(jobId, 'xlsx_basic');
      expect(broke.status).toBe(402);
      expect(broke.body.code).toBe('insufficient_credits');
      expect(await job(jobId)).toMatchObject({ xlsx_basic_converted: false });
    } finally {
      await db.query('UPDATE users SET points_balance = 1000000 WHERE id = $1', [userId]);
    }
  });

  it('XLSX Advanced: done through the worker at 3 per unit; a failed run is 502, retried free, or refunded once', async () => {
    const jobId = await finishedJob(['Alpha', 'Beta']);
    let before = await balance();
    const ok = await convert(jobId, 'xlsx_advanced');
    expect(ok.status).toBe(200);
    expect(ok.body.storage_path).toBe(`results/${jobId}/result.advanced.xlsx`);
    expect(await balance()).toBe(before - 6);
    expect(await job(jobId)).toMatchObject({ xlsx_advanced_converted: true, xlsx_advanced_status: 'done' });

    // A run that cannot find the job's Markdown fails: 502, error, refundable, with notes.
    const broken = await finishedJob(['Gamma', 'Delta']);
    const markdown = join(t.config.storage.localDir, 'results', broken, 'result.md');
    await rename(markdown, `${markdown}.away`);
    before = await balance();
    const failed = await convert(broken, 'xlsx_advanced');
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ code: 'conversion_failed', xlsx_advanced_status: 'error' });
    expect(await balance()).toBe(before - 6);
    const afterFailure = await job(broken);
    expect(afterFailure).toMatchObject({ xlsx_advanced_status: 'error', xlsx_advanced_refundable: true });
    expect(afterFailure.xlsx_advanced_recovery_notes).toMatch(/Retry it with POST/);

    // Retry (free) once the Markdown is back: processing, then done.
    await rename(`${markdown}.away`, markdown);
    const retry = await t.http
      .post(`/api/v1/jobs/${broken}/xlsx-advanced-action`)
      .set('X-API-Key', key.key)
      .send({ action: 'retry' })
      .expect(200);
    expect(retry.body).toEqual({ job_id: afterFailure.xlsx_advanced_job_id, status: 'processing' });
    const deadline = Date.now() + 30_000;
    while ((await job(broken)).xlsx_advanced_status !== 'done' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    expect(await job(broken)).toMatchObject({ xlsx_advanced_status: 'done', xlsx_advanced_converted: true });
    expect(await balance()).toBe(before - 6);

    // Refund: fail another run, refund gives 3 per unit back, a second refund is 400.
    const refundable = await finishedJob(['Epsilon']);
    const gone = join(t.config.storage.localDir, 'results', refundable, 'result.md');
    await rename(gone, `${gone}.away`);
    before = await balance();
    expect((await convert(refundable, 'xlsx_advanced')).status).toBe(502);
    const refund = await t.http
      .post(`/api/v1/jobs/${refundable}/xlsx-advanced-action`)
      .set('X-API-Key', key.key)
      .send({ action: 'refund' })
      .expect(200);
    expect(refund.body).toEqual({ refunded: true, points: 3 });
    expect(await balance()).toBe(before);
    expect(await job(refundable)).toMatchObject({ xlsx_advanced_status: 'refunded', xlsx_advanced_refundable: false });
    const again = await t.http
      .post(`/api/v1/jobs/${refundable}/xlsx-advanced-action`)
      .set('X-API-Key', key.key)
      .send({ action: 'refund' });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('invalid_state');
  });

  it('XLSX Advanced writes printed totals as SUM formulas and notes the total its rows do not add up to', async () => {
    const markdown = [
      '# Sales',
      '',
      'Table 1. Sales by region',
      '',
      '| Region | Q1 | Q2 |',
      '|---|---|---|',
      '| Seoul | 1,000 | 10 |',
      '| Busan | 2,000 | 20 |',
      '| Total | 3,000 | 31 |',
    ].join('\n');
    const res = await upload(t.http, key.key, [{ name: 'sales.md', content: Buffer.from(markdown) }]);
    expect(res.status).toBe(201);
    const jobId = res.body.job_id as string;
    await t.http.post(`/api/v1/jobs/${jobId}/confirm`).set('X-API-Key', key.key).expect(200);
    expect((await waitForJob(t.http, key.key, jobId, ['done', 'error'])).status).toBe('done');
    expect((await convert(jobId, 'xlsx_advanced')).status).toBe(200);
    const file = await t.http
      .get(`/api/v1/jobs/${jobId}/download?format=xlsx_advanced`)
      .set('X-API-Key', key.key)
      .buffer(true)
      .parse(binary)
      .expect(200);
    const workbook = new Workbook();
    await workbook.xlsx.load(file.body as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Contents', 'Table 1. Sales by region', 'Text']);
    const sheet = workbook.worksheets[1];
    expect(sheet.getCell('B4').value).toEqual({ formula: 'SUM(B2:B3)', result: 3000 });
    expect(sheet.getCell('C4').value).toBe(31);
    const notes = (await job(jobId)).xlsx_advanced_recovery_notes as string;
    expect(notes).toContain('1 printed total did not match');
    expect(notes).toContain('cell C4: the document prints 31 as a total, but the rows above it add up to 30.');
  });
});
