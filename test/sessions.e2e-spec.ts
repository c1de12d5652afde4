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
    const session = await login(t, user);
    const refreshed = await t.http.post('/api/v1/auth/refresh').send({ refresh_token: session.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({
      access_token: expect.any(String) as unknown,
      token_type: 'Bearer',
      expires_in: t.config.auth.jwtTtlSeconds,
      refresh_token: expect.stringMatching(/^dcr_/) as unknown,
      refresh_expires_in: expect.any(Number) as unknown,
      session_id: session.session_id,
    });
    const renewed = refreshed.body.access_token as string;
    expect(jwt.decode(renewed)).toMatchObject({ sub: user.userId, sid: session.session_id });
    await t.http.get('/api/v1/jobs').set(bearer(renewed)).expect(200);
    await t.http.get('/api/v1/account').set(bearer(renewed)).expect(200);

    const expired = jwt.sign(
      { sid: session.session_id, exp: Math.floor(Date.now() / 1000) - 10 },
      t.config.auth.jwtSecret,
      {
        algorithm: 'HS256',
        subject: user.userId,
        issuer: 'docconv',
      },
    );
    for (const token of [expired, 'garbage']) {
      const res = await t.http.get('/api/v1/account').set(bearer(token));
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 401, code: 'unauthorized', title: 'Not authenticated' });
      expect(res.body.detail).toMatch(/invalid or has expired, or its session has ended/);
    }
    for (const body of [{ refresh_token: 'garbage' }, { refresh_token: `${session.refresh_token.slice(0, -1)}0` }]) {
      const res = await t.http.post('/api/v1/auth/refresh').send(body);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'unauthorized' });
    }
    const none = await t.http.post('/api/v1/auth/refresh').set(bearer(renewed));
    expect({ status: none.status, code: none.body.code }).toEqual({ status: 400, code: 'validation_failed' });
  });
});

interface IssuedSession {
  access_token: string;
  refresh_token: string;
  session_id: string;
}

/** A new session of the user, as the console or a person's script starts one. */
async function login(t: TestApp, user: TestUser, userAgent = 'session-tests'): Promise<IssuedSession> {
  const res = await t.http
    .post('/api/v1/auth/login')
    .set('User-Agent', userAgent)
    .send({ email: user.email, password: user.password })
    .expect(200);
  return res.body as IssuedSession;
}

describe('sessions end when they should', () => {
  let t: TestApp;
  let db: DataSource;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const works = async (token: string) => (await t.http.get('/api/v1/account').set(bearer(token))).status === 200;
  const refresh = (token: string) => t.http.post('/api/v1/auth/refresh').send({ refresh_token: token });

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  it('refuses a validly signed access token that lives longer than JWT_TTL_SECONDS', async () => {
    const user = await signup(t.http, 'session-long');
    const { sid } = jwt.decode(user.jwt) as { sid: string };
    const now = Math.floor(Date.now() / 1000);
    const ttl = t.config.auth.jwtTtlSeconds;
    const sign = (claims: object, noTimestamp = false) =>
      jwt.sign({ sid, ...claims }, t.config.auth.jwtSecret, {
        noTimestamp,
        algorithm: 'HS256',
        subject: user.userId,
        issuer: 'docconv',
      });
    // Signed like ours with the live session it names: only its lifetime is wrong.
    const until2100 = sign({ iat: now, exp: 4_102_444_800 });
    const backdated = sign({ iat: now - 86_400, exp: now + ttl - 60 });
    const noIssueTime = sign({ exp: now + 60 }, true);
    for (const token of [until2100, backdated, noIssueTime]) {
      const res = await t.http.get('/api/v1/account').set(bearer(token));
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'unauthorized' });
    }
    expect(await works(sign({ iat: now, exp: now + ttl }))).toBe(true);
  });

  it('rotates refresh tokens; an old one used again ends the whole session, renewed tokens included', async () => {
    const user = await signup(t.http, 'session-rotate');
    const first = await login(t, user);
    const second = (await refresh(first.refresh_token).expect(200)).body as IssuedSession;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.session_id).toBe(first.session_id);
    const third = (await refresh(second.refresh_token).expect(200)).body as IssuedSession;
    expect(await works(third.access_token)).toBe(true);

    // The first refresh token comes back: someone else may hold it, so the session ends.
    const reused = await refresh(first.refresh_token);
    expect({ status: reused.status, code: reused.body.code }).toEqual({ status: 401, code: 'unauthorized' });
    expect(reused.body.detail).toMatch(/already used, so the session has been ended/);
    for (const token of [first.access_token, second.access_token, third.access_token]) {
      expect(await works(token)).toBe(false);
    }
    expect((await refresh(third.refresh_token)).status).toBe(401);
    const [row] = await db.query('SELECT revoked_reason FROM sessions WHERE id = $1', [first.session_id]);
    expect(row).toEqual({ revoked_reason: 'refresh_reused' });
    // The user's other session (from sign-up) goes on.
    expect(await works(user.jwt)).toBe(true);
  });

  it('logout ends the session: its access and refresh tokens stop working, other sessions go on', async () => {
    const user = await signup(t.http, 'session-logout');
    const session = await login(t, user);
    await t.http.post('/api/v1/auth/logout').set(bearer(session.access_token)).expect(204);
    expect(await works(session.access_token)).toBe(false);
    expect((await refresh(session.refresh_token)).status).toBe(401);
    expect((await t.http.post('/api/v1/auth/logout').set(bearer(session.access_token))).status).toBe(401);
    expect(await works(user.jwt)).toBe(true);
  });

  it('a password change ends every other session and keeps the current one', async () => {
    const user = await signup(t.http, 'session-password');
    const current = await login(t, user, 'laptop');
    const other = await login(t, user, 'phone');
    const change = (current_password: string, new_password: string) =>
      t.http.post('/api/v1/auth/password').set(bearer(current.access_token)).send({ current_password, new_password });

    const wrong = await change('not my password', 'a brand new password');
    expect(wrong.status).toBe(400);
    expect(wrong.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(wrong.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'current_password' }] });
    expect(await works(other.access_token)).toBe(true);
    const short = await change(user.password, 'short');
    expect({ status: short.status, field: short.body.errors?.[0]?.field }).toEqual({
      status: 400,
      field: 'new_password',
    });

    await change(user.password, 'a brand new password').expect(204);
    expect(await works(other.access_token)).toBe(false);
    expect((await refresh(other.refresh_token)).status).toBe(401);
    expect(await works(user.jwt)).toBe(false);
    expect(await works(current.access_token)).toBe(true);
    expect((await refresh(current.refresh_token)).status).toBe(200);

    const old = await t.http.post('/api/v1/auth/login').send({ email: user.email, password: user.password });
    expect(old.status).toBe(401);
    await t.http.post('/api/v1/auth/login').send({ email: user.email, password: 'a brand new password' }).expect(200);
  });

  it("lists the caller's live sessions and ends one; another user's session is not found", async () => {
    const user = await signup(t.http, 'session-list');
    const laptop = await login(t, user, 'Firefox on the laptop');
    const phone = await login(t, user, 'Safari on the phone');
    const listed = await t.http.get('/api/v1/auth/sessions').set(bearer(laptop.access_token)).expect(200);
    const byId = new Map((listed.body as { id: string }[]).map((s) => [s.id, s]));
    expect(byId.size).toBe(3); // sign-up, laptop, phone
    expect(byId.get(laptop.session_id)).toMatchObject({ user_agent: 'Firefox on the laptop', current: true });
    expect(byId.get(phone.session_id)).toMatchObject({ user_agent: 'Safari on the phone', current: false });
    expect(JSON.stringify(listed.body)).not.toContain(laptop.refresh_token);

    await t.http.delete(`/api/v1/auth/sessions/${phone.session_id}`).set(bearer(laptop.access_token)).expect(204);
    expect(await works(phone.access_token)).toBe(false);
    expect((await refresh(phone.refresh_token)).status).toBe(401);
    const after = await t.http.get('/api/v1/auth/sessions').set(bearer(laptop.access_token)).expect(200);
    expect((after.body as { id: string }[]).map((s) => s.id)).not.toContain(phone.session_id);

    const stranger = await signup(t.http, 'session-stranger');
    for (const id of [laptop.session_id, 'not-a-uuid']) {
      const res = await t.http.delete(`/api/v1/auth/sessions/${id}`).set(bearer(stranger.jwt));
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'session_not_found' });
    }
    expect(await works(laptop.access_token)).toBe(true);
    // An API key manages no sessions.
    const key = await createKey(t.http, user);
    expect((await t.http.get('/api/v1/auth/sessions').set('X-API-Key', key.key)).status).toBe(401);
  });

  it('mints and changes API keys only from a recent log-in', async () => {
    const user = await signup(t.http, 'session-recent');
    const { sid } = jwt.decode(user.jwt) as { sid: string };
    const key = await createKey(t.http, user);
    await db.query("UPDATE sessions SET created_at = now() - interval '11 minutes' WHERE id = $1", [sid]);
    for (const res of [
      await t.http.post('/api/v1/keys').set(bearer(user.jwt)).send({}),
      await t.http.post(`/api/v1/keys/${key.id}/rotate`).set(bearer(user.jwt)),
      await t.http.patch(`/api/v1/keys/${key.id}`).set(bearer(user.jwt)).send({ name: 'renamed' }),
    ]) {
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'recent_login_required' });
    }
    // Listing and deactivating go on; a new log-in mints again.
    await t.http.get('/api/v1/keys').set(bearer(user.jwt)).expect(200);
    const fresh = await login(t, user);
    await t.http.post('/api/v1/keys').set(bearer(fresh.access_token)).send({}).expect(201);
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
    const other = await t.http
      .post('/api/v1/auth/login')
      .send({ email: user.email, password: user.password })
      .expect(200);
    const first = await t.http.get('/api/v1/keys').set('Authorization', `Bearer ${user.jwt}`).expect(200);
    expect(first.headers['ratelimit-remaining']).toBe('2');
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
