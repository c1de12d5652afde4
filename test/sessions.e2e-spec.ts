import * as jwt from 'jsonwebtoken';
import { DataSource } from 'typeorm';
import { createKey, signup, type TestUser } from './support/accounts';
import { makePdf } from './support/fixtures';
import { binary } from './support/jobs';
import { createTestApp, type TestApp } from './support/test-app';

/** Reads a job's Server-Sent Events with a session token until the server closes the stream. */
async function readEvents(url: string, token: string): Promise<{ status: number; events: string[]; text: string }> {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' } });
  const text = res.body ? await new Response(res.body).text() : '';
  const events = text
    .split('\n\n')
    .filter((block) => block.includes('data:'))
    .map((block) => JSON.parse(/^data:(.*)$/m.exec(block)![1]) as { status: string })
    .map((data) => data.status);
  return { status: res.status, events, text };
}

describe('a session token on the job routes', () => {
  let t: TestApp;
  let db: DataSource;
  let user: TestUser;
  let base: string;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    db = t.app.get(DataSource);
    user = await signup(t.http, 'session-jobs');
    await db.query('UPDATE users SET points_balance = 100000 WHERE id = $1', [user.userId]);
  });
  afterAll(() => t.close());

  it('uploads, confirms, follows events, reads status, downloads and previews without an API key', async () => {
    const pdf = await makePdf(['Sessions convert documents.', 'The second page.']);
    const uploaded = await t.http.post('/api/v1/jobs/upload').set(bearer(user.jwt)).attach('files', pdf, 'session.pdf');
    expect(uploaded.status).toBe(201);
    const jobId = uploaded.body.job_id as string;
    expect(uploaded.headers['ratelimit-limit']).toBe(String(t.config.auth.sessionRateLimitRpm));

    const stream = readEvents(`${base}/api/v1/jobs/${jobId}/events`, user.jwt);
    await new Promise((r) => setTimeout(r, 300)); // the stream is open before the job starts
    const confirmed = await t.http.post(`/api/v1/jobs/${jobId}/confirm`).set(bearer(user.jwt));
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ job_id: jobId, status: 'queued' });

    const { status, events } = await stream;
    expect(status).toBe(200);
    expect(events[0]).toBe('pending');
    expect(events[events.length - 1]).toBe('done');

    const job = await t.http.get(`/api/v1/jobs/${jobId}`).set(bearer(user.jwt)).expect(200);
    expect(job.body).toMatchObject({ job_id: jobId, status: 'done' });
    const list = await t.http.get('/api/v1/jobs').set(bearer(user.jwt)).expect(200);
    expect(list.body.jobs.map((j: { job_id: string }) => j.job_id)).toContain(jobId);

    const markdown = await t.http.get(`/api/v1/jobs/${jobId}/download`).set(bearer(user.jwt));
    expect(markdown.status).toBe(200);
    expect(markdown.text).toContain('Sessions convert documents.');
    const preview = await t.http
      .get(`/api/v1/jobs/${jobId}/pages/1/preview`)
      .set(bearer(user.jwt))
      .buffer(true)
      .parse(binary);
    expect(preview.status).toBe(200);
    expect(preview.headers['content-type']).toBe('image/png');
    expect((preview.body as Buffer).subarray(1, 4).toString('latin1')).toBe('PNG');

    // The spend was made by the user's session: its ledger row names no key.
    const rows = await db.query(
      "SELECT api_key_id, amount::int AS amount FROM credit_transactions WHERE job_id = $1 AND type = 'spend'",
      [jobId],
    );
    expect(rows).toEqual([{ api_key_id: null, amount: -uploaded.body.cost.points }]);
    expect(uploaded.body.cost.points).toBeGreaterThan(0);
    // Nothing made a key for the user along the way.
    expect((await t.http.get('/api/v1/keys').set(bearer(user.jwt)).expect(200)).body).toEqual([]);
  });

  it("a key's daily quota does not hold back its user's session; a repeated confirm is charged once", async () => {
    const key = await createKey(t.http, user, { daily_quota: 1 });
    const pdf = await makePdf(['One page over the quota.']);
    const bySession = await t.http.post('/api/v1/jobs/upload').set(bearer(user.jwt)).attach('files', pdf, 'a.pdf');
    expect(bySession.body.cost.points).toBeGreaterThan(1);
    const confirm = () =>
      t.http
        .post(`/api/v1/jobs/${bySession.body.job_id}/confirm`)
        .set(bearer(user.jwt))
        .set('Idempotency-Key', `session-${bySession.body.job_id}`);
    const first = await confirm();
    expect(first.status).toBe(200);
    const again = await confirm();
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: first.body });
    const spends = await db.query(
      "SELECT count(*)::int AS n FROM credit_transactions WHERE job_id = $1 AND type = 'spend'",
      [bySession.body.job_id],
    );
    expect(spends).toEqual([{ n: 1 }]);

    // The same user's key is held to its quota of 1 point.
    const byKey = await t.http.post('/api/v1/jobs/upload').set('X-API-Key', key.key).attach('files', pdf, 'b.pdf');
    const refused = await t.http.post(`/api/v1/jobs/${byKey.body.job_id}/confirm`).set('X-API-Key', key.key);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'daily_quota_exceeded', title: 'Daily quota reached' });
  });

  it("another user's session sees none of it", async () => {
    const owner = await t.http
      .post('/api/v1/jobs/upload')
      .set(bearer(user.jwt))
      .attach('files', Buffer.from('# mine'), 'mine.md')
      .expect(201);
    const stranger = await signup(t.http, 'session-stranger');
    const foreign = await t.http.get(`/api/v1/jobs/${owner.body.job_id}`).set(bearer(stranger.jwt));
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 404, code: 'job_not_found' });
  });

  it('refresh gives a token that works; an expired or garbage token gets a 401 problem', async () => {
    const refreshed = await t.http.post('/api/v1/auth/refresh').set(bearer(user.jwt));
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({
      access_token: expect.any(String) as unknown,
      token_type: 'Bearer',
      expires_in: t.config.auth.jwtTtlSeconds,
    });
    const renewed = refreshed.body.access_token as string;
    expect(jwt.decode(renewed)).toMatchObject({ sub: user.userId });
    await t.http.get('/api/v1/jobs').set(bearer(renewed)).expect(200);
    await t.http.get('/api/v1/account').set(bearer(renewed)).expect(200);

    const expired = jwt.sign({ exp: Math.floor(Date.now() / 1000) - 10 }, t.config.auth.jwtSecret, {
      algorithm: 'HS256',
      subject: user.userId,
      issuer: 'docconv',
    });
    for (const token of [expired, 'garbage']) {
      const res = await t.http.post('/api/v1/auth/refresh').set(bearer(token));
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 401, code: 'unauthorized', title: 'Not authenticated' });
      expect(res.body.detail).toMatch(/invalid or has expired\. Log in again/);
    }
    const none = await t.http.post('/api/v1/auth/refresh');
    expect({ status: none.status, code: none.body.code }).toEqual({ status: 401, code: 'unauthorized' });
  });
});

describe("a user's sessions share one rate limit", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({}, { ...process.env, SESSION_RATE_LIMIT_RPM: '3' });
  });
  afterAll(() => t.close());

  it('answers 429 with RateLimit headers past the limit, counting every token of the user together', async () => {
    const user = await signup(t.http, 'session-limit');
    const other = await t.http.post('/api/v1/auth/refresh').set('Authorization', `Bearer ${user.jwt}`).expect(200);
    expect(other.headers['ratelimit-remaining']).toBe('2');
    const second = await t.http.get('/api/v1/jobs').set('Authorization', `Bearer ${other.body.access_token}`);
    expect(second.status).toBe(200);
    expect(second.headers['ratelimit-limit']).toBe('3');
    expect(second.headers['ratelimit-remaining']).toBe('1');
    await t.http.get('/api/v1/account').set('Authorization', `Bearer ${user.jwt}`).expect(200);

    const refused = await t.http.get('/api/v1/jobs').set('Authorization', `Bearer ${user.jwt}`);
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ code: 'rate_limited', title: 'Too many requests' });
    expect(refused.body.detail).toMatch(/Your session allows 3 requests per minute/);
    expect(refused.headers['ratelimit-limit']).toBe('3');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // Another user's session has a count of its own.
    const fresh = await signup(t.http, 'session-limit-other');
    await t.http.get('/api/v1/jobs').set('Authorization', `Bearer ${fresh.jwt}`).expect(200);
  });
});
