import { Controller, Module, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Access } from '../apps/api/src/auth/access.decorator';
import { createKey, signup } from './support/accounts';
import { createTestApp, uniqueEmail, type TestApp } from './support/test-app';

/** A write route guarded like the jobs endpoints, to watch scopes from outside. */
@Controller('probe-scope')
class ScopeProbeController {
  @Post()
  @Access({ credential: 'api_key', scope: 'jobs:write' })
  write(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [ScopeProbeController] })
class ScopeProbeModule {}

describe('accounts and access', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp({ extraModules: [ScopeProbeModule] });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  it('signup → login → key → GET /account with the key and with the JWT; the secret is stored nowhere', async () => {
    const user = await signup(t.http, 'flow');
    const login = await t.http
      .post('/api/v1/auth/login')
      .send({ email: user.email, password: user.password })
      .expect(200);
    expect(login.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
      refresh_token: expect.stringMatching(/^dcr_/),
      refresh_expires_in: 30 * 24 * 3600,
      session_id: expect.any(String),
    });

    const created = await t.http
      .post('/api/v1/keys')
      .set('Authorization', `Bearer ${login.body.access_token}`)
      .send({ name: 'ci' })
      .expect(201);
    expect(created.body).toMatchObject({
      name: 'ci',
      scopes: ['jobs:read', 'jobs:write'],
      rate_limit_rpm: 60,
      daily_quota: null,
      is_active: true,
    });
    const secret: string = created.body.key;
    expect(secret).toMatch(/^dcv_[A-Za-z0-9_-]{43}$/);
    expect(secret.startsWith(created.body.prefix)).toBe(true);
    expect(created.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);

    const byKey = await t.http.get('/api/v1/account').set('X-API-Key', secret).expect(200);
    expect(byKey.body).toEqual({
      user_id: user.userId,
      email: user.email,
      points_balance: 0,
      api_key: {
        id: created.body.id,
        name: 'ci',
        prefix: created.body.prefix,
        scopes: ['jobs:read', 'jobs:write'],
        rate_limit_rpm: 60,
        daily_quota: null,
        daily_spent_points: 0,
      },
      today_usage: { points_spent: 0, requests: expect.any(Number) },
      free_pages: {
        monthly: 100,
        used: 0,
        left: 100,
        resets_at: expect.stringMatching(/^\d{4}-\d\d-01T00:00:00$/),
      },
    });
    const byJwt = await t.http.get('/api/v1/account').set('Authorization', `Bearer ${user.jwt}`).expect(200);
    expect(byJwt.body).toMatchObject({ user_id: user.userId, api_key: null });

    const listed = await t.http.get('/api/v1/keys').set('Authorization', `Bearer ${user.jwt}`).expect(200);
    for (const body of [listed.text, byKey.text, byJwt.text]) expect(body).not.toContain(secret);
    const rows = JSON.stringify(await db.query('SELECT * FROM api_keys WHERE user_id = $1', [user.userId]));
    expect(rows).not.toContain(secret);
    expect(rows).not.toContain(secret.slice(12));
    const users = JSON.stringify(await db.query('SELECT * FROM users WHERE id = $1', [user.userId]));
    expect(users).not.toContain(user.password);
    expect(users).toContain('$argon2id$');
  });

  it('signup validates, refuses a taken email with 409, and login answers unknown email and wrong password alike', async () => {
    const short = await t.http.post('/api/v1/auth/signup').send({ email: 'nope', password: 'short' }).expect(400);
    expect(short.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'password']);

    const user = await signup(t.http, 'dup');
    const again = await t.http
      .post('/api/v1/auth/signup')
      .send({ email: user.email.toUpperCase(), password: 'whatever1' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('email_taken');

    const wrong = await t.http.post('/api/v1/auth/login').send({ email: user.email, password: 'wrong password' });
    const unknown = await t.http
      .post('/api/v1/auth/login')
      .send({ email: uniqueEmail('ghost'), password: 'wrong password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect({ ...wrong.body, instance: null }).toEqual({ ...unknown.body, instance: null });
  });

  it('credentials go where they belong: /keys takes only a JWT, a key-only route only a key, /jobs either', async () => {
    const user = await signup(t.http, 'creds');
    const key = await createKey(t.http, user);

    const keyOnKeys = await t.http.get('/api/v1/keys').set('X-API-Key', key.key);
    expect(keyOnKeys.status).toBe(401);
    expect(keyOnKeys.body.detail).toMatch(/session token/);

    const jwtOnKeyRoute = await t.http.post('/api/v1/probe-scope').set('Authorization', `Bearer ${user.jwt}`);
    expect(jwtOnKeyRoute.status).toBe(401);
    expect(jwtOnKeyRoute.body.detail).toMatch(/takes an API key/i);

    const jwtOnJobs = await t.http.get('/api/v1/jobs').set('Authorization', `Bearer ${user.jwt}`);
    expect(jwtOnJobs.status).toBe(200);
    expect(jwtOnJobs.body.jobs).toEqual([]);
    const keyOnJobs = await t.http.get('/api/v1/jobs').set('X-API-Key', key.key);
    expect(keyOnJobs.status).toBe(200);

    for (const bad of [undefined, 'garbage', `dcv_${'A'.repeat(43)}`]) {
      const req = t.http.get('/api/v1/account');
      const res = bad === undefined ? await req : await req.set('X-API-Key', bad);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthorized');
    }
    const badJwt = await t.http.get('/api/v1/account').set('Authorization', 'Bearer not.a.jwt');
    expect(badJwt.status).toBe(401);
  });

  it('scopes: a key without jobs:write gets 403 on a write', async () => {
    const user = await signup(t.http, 'scope');
    const reader = await createKey(t.http, user, { scopes: ['jobs:read'] });
    const writer = await createKey(t.http, user, { scopes: ['jobs:write'] });
    const denied = await t.http.post('/api/v1/probe-scope').set('X-API-Key', reader.key);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('forbidden');
    await t.http.post('/api/v1/probe-scope').set('X-API-Key', writer.key).expect(201);
    const unknownScope = await t.http
      .post('/api/v1/keys')
      .set('Authorization', `Bearer ${user.jwt}`)
      .send({ scopes: ['jobs:admin'] });
    expect(unknownScope.status).toBe(400);
    expect(unknownScope.body.errors[0].field).toBe('scopes');
  });

  it('rotation refuses the old key on the very next request; the new one keeps the settings', async () => {
    const user = await signup(t.http, 'rotate');
    const old = await createKey(t.http, user, {
      name: 'prod',
      scopes: ['jobs:read'],
      rate_limit_rpm: 17,
      daily_quota: 900,
    });
    await t.http.get('/api/v1/account').set('X-API-Key', old.key).expect(200);

    const rotated = await t.http
      .post(`/api/v1/keys/${old.id}/rotate`)
      .set('Authorization', `Bearer ${user.jwt}`)
      .expect(201);
    expect(rotated.body).toMatchObject({ name: 'prod', scopes: ['jobs:read'], rate_limit_rpm: 17, daily_quota: 900 });
    expect(rotated.body.id).not.toBe(old.id);

    await t.http.get('/api/v1/account').set('X-API-Key', old.key).expect(401);
    const fresh = await t.http.get('/api/v1/account').set('X-API-Key', rotated.body.key).expect(200);
    expect(fresh.body.api_key).toMatchObject({ id: rotated.body.id, rate_limit_rpm: 17, daily_quota: 900 });
    expect(fresh.headers['ratelimit-limit']).toBe('17');

    await t.http.post(`/api/v1/keys/${old.id}/rotate`).set('Authorization', `Bearer ${user.jwt}`).expect(404);
    const other = await signup(t.http, 'thief');
    await t.http.post(`/api/v1/keys/${rotated.body.id}/rotate`).set('Authorization', `Bearer ${other.jwt}`).expect(404);
  });

  it('PATCH changes a key and DELETE deactivates it', async () => {
    const user = await signup(t.http, 'patch');
    const key = await createKey(t.http, user);
    const auth = { Authorization: `Bearer ${user.jwt}` };
    const patched = await t.http
      .patch(`/api/v1/keys/${key.id}`)
      .set(auth)
      .send({ name: 'renamed', rate_limit_rpm: 5, daily_quota: 0 })
      .expect(200);
    expect(patched.body).toMatchObject({ name: 'renamed', rate_limit_rpm: 5, daily_quota: 0 });
    const invalid = await t.http.patch(`/api/v1/keys/${key.id}`).set(auth).send({ rate_limit_rpm: 0 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0].field).toBe('rate_limit_rpm');

    await t.http.delete(`/api/v1/keys/${key.id}`).set(auth).expect(200);
    await t.http.get('/api/v1/account').set('X-API-Key', key.key).expect(401);
    const listed = await t.http.get('/api/v1/keys').set(auth).expect(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: key.id, is_active: false })]);
    await t.http.patch('/api/v1/keys/not-a-uuid').set(auth).send({ name: 'x' }).expect(404);
  });

  it('rate limit: with rate_limit_rpm 5 the sixth request within the minute is 429, with headers throughout', async () => {
    const user = await signup(t.http, 'rpm');
    const key = await createKey(t.http, user, { rate_limit_rpm: 5 });
    for (let i = 1; i <= 5; i++) {
      const ok = await t.http.get('/api/v1/account').set('X-API-Key', key.key).expect(200);
      expect(ok.headers['ratelimit-limit']).toBe('5');
      expect(ok.headers['ratelimit-remaining']).toBe(String(5 - i));
      expect(Number(ok.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(0);
    }
    const limited = await t.http.get('/api/v1/account').set('X-API-Key', key.key);
    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toMatch(/problem\+json/);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['ratelimit-remaining']).toBe('0');

    // The limit is per key: another key of the same user is unaffected.
    const second = await createKey(t.http, user, { rate_limit_rpm: 5 });
    await t.http.get('/api/v1/account').set('X-API-Key', second.key).expect(200);
  });

  it('rate limit holds under concurrency: 20 simultaneous requests on a 10 rpm key → exactly 10 pass', async () => {
    const user = await signup(t.http, 'burst');
    const key = await createKey(t.http, user, { rate_limit_rpm: 10 });
    const statuses = await Promise.all(
      Array.from({ length: 20 }, async () => (await t.http.get('/api/v1/account').set('X-API-Key', key.key)).status),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it('failed logins slow down one email from one client with growing waits, never locking the owner out', async () => {
    const limited = await createTestApp(
      {},
      { ...process.env, LOGIN_FREE_FAILURES: '3', LOGIN_MAX_DELAY_SECONDS: '60' },
    );
    // The API trusts X-Forwarded-For from loopback (a proxy in front of it), so each header value is a client.
    const from = (address: string, email: string, password: string) =>
      limited.http.post('/api/v1/auth/login').set('X-Forwarded-For', address).send({ email, password });
    const attacker = '203.0.113.7';
    try {
      const user = await signup(limited.http, 'brute');
      for (let i = 0; i < 4; i++) expect((await from(attacker, user.email, 'guess-guess')).status).toBe(401);
      // Past the three free failures, the fourth set a wait of 1 s for this email from this client, right password or not.
      const held = await from(attacker, user.email, user.password);
      expect({ status: held.status, retryAfter: held.headers['retry-after'] }).toEqual({
        status: 429,
        retryAfter: '1',
      });
      expect(held.body.detail).toMatch(/Try again in 1 s/);
      // The owner, from anywhere else, is not held back.
      expect((await from('198.51.100.9', user.email, user.password)).status).toBe(200);
      // The wait doubles with each further failure.
      await new Promise((r) => setTimeout(r, 1_100));
      expect((await from(attacker, user.email, 'guess-guess')).status).toBe(401);
      expect((await from(attacker, user.email, 'guess-guess')).headers['retry-after']).toBe('2');
      // After the wait, the right password works, and clears the pair's failures.
      await new Promise((r) => setTimeout(r, 2_100));
      expect((await from(attacker, user.email, user.password)).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await from(attacker, user.email, 'guess-guess')).status).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it('one client is capped on failed logins across every email, and on sign-ups, taken emails included', async () => {
    const limited = await createTestApp(
      {},
      { ...process.env, LOGIN_MAX_FAILURES_PER_ADDRESS: '5', SIGNUP_MAX_PER_ADDRESS: '3' },
    );
    const client = '203.0.113.44';
    try {
      const users = [];
      for (let i = 0; i < 2; i++) users.push(await signup(t.http, 'spread'));
      const signupFrom = (address: string, email: string) =>
        limited.http
          .post('/api/v1/auth/signup')
          .set('X-Forwarded-For', address)
          .send({ email, password: 'correct horse battery' });
      // Sign-ups per client: new and taken emails alike count.
      expect((await signupFrom(client, uniqueEmail('new'))).status).toBe(201);
      expect((await signupFrom(client, users[0].email)).status).toBe(409);
      expect((await signupFrom(client, uniqueEmail('new'))).status).toBe(201);
      const capped = await signupFrom(client, users[1].email);
      expect({ status: capped.status, code: capped.body.code }).toEqual({ status: 429, code: 'rate_limited' });
      expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);
      expect((await signupFrom('203.0.113.45', uniqueEmail('other'))).status).toBe(201);

      // Failed logins spread over many emails from one client.
      const login = (email: string) =>
        limited.http.post('/api/v1/auth/login').set('X-Forwarded-For', client).send({ email, password: 'wrong-wrong' });
      for (let i = 0; i < 5; i++) expect((await login(uniqueEmail(`spray${i}`))).status).toBe(401);
      const blocked = await login(users[1].email);
      expect({ status: blocked.status, code: blocked.body.code }).toEqual({ status: 429, code: 'rate_limited' });
      // Another client is not affected.
      const elsewhere = await limited.http
        .post('/api/v1/auth/login')
        .set('X-Forwarded-For', '198.51.100.10')
        .send({ email: users[1].email, password: users[1].password });
      expect(elsewhere.status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('takes the client from X-Forwarded-For only when the proxy that sent it is trusted', async () => {
    // The tests' requests come from loopback: a list without it makes their X-Forwarded-For a claim.
    const untrusting = await createTestApp(
      {},
      {
        ...process.env,
        TRUSTED_PROXIES: '192.0.2.1,10.0.0.0/8',
        SIGNUP_MAX_PER_ADDRESS: '2',
        // Counters of its own: the suite's other sign-ups come from loopback too.
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}-proxies`,
      },
    );
    try {
      const signupFrom = (address: string) =>
        untrusting.http
          .post('/api/v1/auth/signup')
          .set('X-Forwarded-For', address)
          .send({ email: uniqueEmail('proxied'), password: 'correct horse battery' });
      expect((await signupFrom('203.0.113.60')).status).toBe(201);
      expect((await signupFrom('203.0.113.61')).status).toBe(201);
      // Both counted against the proxy's own address, whatever the header said.
      expect((await signupFrom('203.0.113.62')).status).toBe(429);
    } finally {
      await untrusting.close();
    }
  });

  it('usage over 7 days: 7 rows, zeros on idle days, requests counted after the flush', async () => {
    const user = await signup(t.http, 'usage');
    const key = await createKey(t.http, user); // 1 request (JWT)
    for (let i = 0; i < 5; i++) await t.http.get('/api/v1/account').set('X-API-Key', key.key).expect(200); // 5 more
    await new Promise((r) => setTimeout(r, 1_200)); // flush interval is 300 ms in tests

    const res = await t.http.get('/api/v1/account/usage?days=7').set('X-API-Key', key.key).expect(200);
    expect(res.body).toHaveLength(7);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body[6]).toEqual({ day: today, requests: 6, points_spent: 0 });
    for (const row of res.body.slice(0, 6)) expect(row).toMatchObject({ requests: 0, points_spent: 0 });
    const days = res.body.map((r: { day: string }) => r.day);
    expect([...days].sort()).toEqual(days);
    expect(new Set(days).size).toBe(7);
  });

  it('out-of-range limit and days are 400 naming the field', async () => {
    const user = await signup(t.http, 'ranges');
    const auth = { Authorization: `Bearer ${user.jwt}` };
    for (const [path, field] of [
      ['/api/v1/account/transactions?limit=0', 'limit'],
      ['/api/v1/account/transactions?limit=501', 'limit'],
      ['/api/v1/account/payments?limit=abc', 'limit'],
      ['/api/v1/account/usage?days=91', 'days'],
      ['/api/v1/account/usage?days=0', 'days'],
    ]) {
      const res = await t.http.get(path).set(auth);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    await t.http.get('/api/v1/account/transactions?limit=500').set(auth).expect(200);
    await t.http.get('/api/v1/account/usage?days=90').set(auth).expect(200);
  });
});

describe('with Redis unreachable', () => {
  it('the rate limiter lets key requests through and readiness reports Redis down', async () => {
    const healthy = await createTestApp();
    const user = await signup(healthy.http, 'noredis');
    const key = await createKey(healthy.http, user, { rate_limit_rpm: 1 });
    await healthy.close();

    const t = await createTestApp({}, { ...process.env, REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await t.http.get('/api/v1/account').set('X-API-Key', key.key);
        expect(res.status).toBe(200);
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      }
      const ready = await t.http.get('/api/v1/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.headers['content-type']).toMatch(/problem\+json/);
      expect(ready.body.code).toBe('service_unavailable');
      expect(ready.body.checks.redis.status).toBe('down');
      expect(ready.body.checks.database.status).toBe('up');
    } finally {
      await t.close();
    }
  });
});
