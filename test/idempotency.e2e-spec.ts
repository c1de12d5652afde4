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

  /** An upload with `credential`: any of a user's API keys or their session. */
  const uploadWith = (credential: [string, string], idempotencyKey: string, content: Buffer = pdf) =>
    t.http
      .post('/api/v1/jobs/upload')
      .set(...credential)
      .set('Idempotency-Key', idempotencyKey)
      .field('ocr_model', 'premium')
      .attach('files', content, 'memo.pdf');
  const jobsOfUser = async (id: string) =>
    Number((await db.query('SELECT count(*) AS n FROM jobs WHERE user_id = $1', [id]))[0].n);

  it("a key names the user's request, whichever of their credentials sends it: one job, one charge", async () => {
    const user = await signup(t.http, 'idem-user');
    await db.query('UPDATE users SET points_balance = 100000 WHERE id = $1', [user.userId]);
    const first = await createKey(t.http, user);
    const second = await createKey(t.http, user);
    const credentials: [string, string][] = [
      ['X-API-Key', first.key],
      ['Authorization', `Bearer ${user.jwt}`],
      ['X-API-Key', second.key],
    ];

    const uploads = [];
    for (const credential of credentials) uploads.push(await uploadWith(credential, 'one-request'));
    expect(uploads.map((u) => u.status)).toEqual([201, 201, 201]);
    expect(uploads.map((u) => u.headers['idempotency-replayed'])).toEqual([undefined, 'true', 'true']);
    expect(new Set(uploads.map((u) => u.body.job_id)).size).toBe(1);
    expect(await jobsOfUser(user.userId)).toBe(1);

    const jobId = uploads[0].body.job_id as string;
    const confirms = [];
    for (const credential of [credentials[1], credentials[0]]) {
      confirms.push(
        await t.http
          .post(`/api/v1/jobs/${jobId}/confirm`)
          .set(...credential)
          .set('Idempotency-Key', 'one-confirm'),
      );
    }
    expect(confirms.map((c) => c.status)).toEqual([200, 200]);
    expect(confirms[1].body).toEqual(confirms[0].body);
    expect(confirms[1].headers['idempotency-replayed']).toBe('true');
    expect(await spendsOf(jobId)).toBe(1);

    // The same key with another request, from another credential of the same user, is the usual conflict.
    const other = await uploadWith(credentials[1], 'one-request', await makePdf(['Another request.']));
    expect([other.status, other.body.code]).toEqual([422, 'idempotency_conflict']);
    expect(await jobsOfUser(user.userId)).toBe(1);
  });

  it('two users sending the same key never meet: a job each', async () => {
    const ada = await signup(t.http, 'idem-ada');
    const bob = await signup(t.http, 'idem-bob');
    const bobKey = await createKey(t.http, bob);
    const byAda = await uploadWith(['Authorization', `Bearer ${ada.jwt}`], 'shared-by-two');
    const byBob = await uploadWith(['X-API-Key', bobKey.key], 'shared-by-two');
    const byBobSession = await uploadWith(['Authorization', `Bearer ${bob.jwt}`], 'shared-by-two');
    expect([byAda.status, byBob.status, byBobSession.status]).toEqual([201, 201, 201]);
    expect(byBob.headers['idempotency-replayed']).toBeUndefined();
    expect(byBob.body.job_id).not.toBe(byAda.body.job_id);
    expect(byBobSession.body.job_id).toBe(byBob.body.job_id);
    expect([await jobsOfUser(ada.userId), await jobsOfUser(bob.userId)]).toEqual([1, 1]);
    const adaSees = await t.http.get(`/api/v1/jobs/${byBob.body.job_id}`).set('Authorization', `Bearer ${ada.jwt}`);
    expect(adaSees.status).toBe(404);
  });
});
