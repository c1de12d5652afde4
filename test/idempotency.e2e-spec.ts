import { DataSource } from 'typeorm';
import { createKey, signup, type TestKey } from './support/accounts';
import { makePdf } from './support/fixtures';
import { createTestApp, type TestApp } from './support/test-app';

describe('Idempotency-Key on upload, confirm and the other state-changing calls', () => {
  let t: TestApp;
  let key: TestKey;
  let userId: string;
  let db: DataSource;
  let pdf: Buffer;

  beforeAll(async () => {
    t = await createTestApp();
    const user = await signup(t.http, 'idem');
    userId = user.userId;
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    db = t.app.get(DataSource);
    await db.query('UPDATE users SET points_balance = 100000 WHERE id = $1', [userId]);
    pdf = await makePdf(['An idempotent page.', 'And a second one.']);
  });
  afterAll(() => t.close());

  const upload = (idempotencyKey: string, content: Buffer = pdf, fields: Record<string, string> = {}) => {
    let req = t.http.post('/api/v1/jobs/upload').set('X-API-Key', key.key).set('Idempotency-Key', idempotencyKey);
    for (const [name, value] of Object.entries({ ocr_model: 'premium', ...fields })) req = req.field(name, value);
    return req.attach('files', content, 'memo.pdf');
  };
  const confirm = (jobId: string, idempotencyKey: string) =>
    t.http.post(`/api/v1/jobs/${jobId}/confirm`).set('X-API-Key', key.key).set('Idempotency-Key', idempotencyKey);
  const jobsOf = async () =>
    Number((await db.query('SELECT count(*) AS n FROM jobs WHERE user_id = $1', [userId]))[0].n);
  const spendsOf = async (jobId: string) =>
    Number(
      (await db.query("SELECT count(*) AS n FROM credit_transactions WHERE job_id = $1 AND type = 'spend'", [jobId]))[0]
        .n,
    );

  it('the same upload and the same confirm sent twice create one job and one charge', async () => {
    const before = await jobsOf();
    const first = await upload('upload-twice');
    const second = await upload('upload-twice');
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotency-replayed']).toBe('true');
    expect(await jobsOf()).toBe(before + 1);

    const jobId = first.body.job_id as string;
    const confirmed = await confirm(jobId, 'confirm-twice');
    const again = await confirm(jobId, 'confirm-twice');
    expect([confirmed.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(confirmed.body);
    expect(await spendsOf(jobId)).toBe(1);
  });

  it('ten concurrent repeats run once', async () => {
    const before = await jobsOf();
    const uploads = await Promise.all(Array.from({ length: 10 }, () => upload('upload-ten')));
    expect(uploads.map((u) => u.status)).toEqual(Array(10).fill(201));
    expect(new Set(uploads.map((u) => u.body.job_id)).size).toBe(1);
    expect(await jobsOf()).toBe(before + 1);

    const jobId = uploads[0].body.job_id as string;
    const confirms = await Promise.all(Array.from({ length: 10 }, () => confirm(jobId, 'confirm-ten')));
    expect(confirms.map((c) => c.status)).toEqual(Array(10).fill(200));
    expect(await spendsOf(jobId)).toBe(1);
  });

  it('the same key with a different request is 422, and a refused request is replayed as refused', async () => {
    const first = await upload('reused', pdf);
    expect(first.status).toBe(201);
    const other = await upload('reused', await makePdf(['Entirely different content.']));
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_conflict');
    const otherFields = await upload('reused', pdf, { ocr_model: 'basic' });
    expect(otherFields.status).toBe(422);

    const jobId = first.body.job_id as string;
    const cancel = await t.http
      .post(`/api/v1/jobs/${jobId}/cancel`)
      .set('X-API-Key', key.key)
      .set('Idempotency-Key', 'cancel-once');
    expect(cancel.status).toBe(200);
    const confirmAfterCancel = await confirm(jobId, 'confirm-cancelled');
    expect(confirmAfterCancel.status).toBe(400);
    const replayed = await confirm(jobId, 'confirm-cancelled');
    expect(replayed.status).toBe(400);
    expect(replayed.body.detail).toBe(confirmAfterCancel.body.detail);

    const bad = await t.http
      .post(`/api/v1/jobs/${jobId}/cancel`)
      .set('X-API-Key', key.key)
      .set('Idempotency-Key', 'x'.repeat(300));
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/Idempotency-Key header must be 1 to 255/);
  });
});
