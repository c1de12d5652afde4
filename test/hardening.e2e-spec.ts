import * as jwt from 'jsonwebtoken';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { RequestCounter } from '../apps/api/src/usage/request-counter.service';
import { API_CSP, DOCS_CSP } from '../apps/api/src/http/security-headers';
import { createKey, signup, type TestKey, type TestUser } from './support/accounts';
import { upload, waitForJob } from './support/jobs';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * What an attacker or a careless client can send that must never be a 5xx or a way around the
 * rules: scopes on the webhook secret, tokens that are not ours, values no field means, bodies
 * built to hurt the parser, and the headers every answer carries.
 */
describe('hardening: every bad request is a 4xx, and every answer carries its headers', () => {
  let t: TestApp;
  let user: TestUser;
  let key: TestKey;

  beforeAll(async () => {
    t = await createTestApp();
    user = await signup(t.http, 'hardening');
    key = await createKey(t.http, user);
  });
  afterAll(() => t.close());

  it('the webhook secret is read and rotated only with jobs:write or a session', async () => {
    const reader = await createKey(t.http, user, { scopes: ['jobs:read'] });
    for (const call of [
      t.http.get('/api/v1/account/webhook-secret'),
      t.http.post('/api/v1/account/webhook-secret/rotate'),
    ]) {
      const res = await call.set('X-API-Key', reader.key);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'forbidden' });
    }
    const withKey = await t.http.get('/api/v1/account/webhook-secret').set('X-API-Key', key.key).expect(200);
    const rotated = await t.http
      .post('/api/v1/account/webhook-secret/rotate')
      .set('Authorization', `Bearer ${user.jwt}`)
      .expect(200);
    expect(rotated.body.secret).not.toBe(withKey.body.secret);
  });

  it('a signed token without an expiry, or naming anything but a user id, is 401; usage still saves', async () => {
    const secret = t.config.auth.jwtSecret;
    const forever = jwt.sign({}, secret, { algorithm: 'HS256', subject: user.userId, issuer: 'docconv' });
    const notAUser = jwt.sign({}, secret, { algorithm: 'HS256', subject: 'admin', issuer: 'docconv', expiresIn: 600 });
    for (const token of [forever, notAUser]) {
      const res = await t.http.get('/api/v1/account').set('Authorization', `Bearer ${token}`);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'unauthorized' });
    }
    // A well-formed token for a user that does not exist counts a request that cannot be saved:
    // the flush drops it and saves the rest.
    const ghost = jwt.sign({}, secret, {
      algorithm: 'HS256',
      subject: randomUUID(),
      issuer: 'docconv',
      expiresIn: 600,
    });
    await t.http.get('/api/v1/account').set('Authorization', `Bearer ${ghost}`);
    const redis = new Redis(process.env.REDIS_URL!);
    try {
      // A count no API process would write, put there as a damaged Redis might hold it.
      await redis.hincrby(`${t.config.redis.prefix}:usage:pending`, 'not-a-user|not-a-day', 1);
    } finally {
      redis.disconnect();
    }
    await t.app.get(RequestCounter).flush();
    const before = await requestsToday(t, user.userId);
    for (let i = 0; i < 3; i++) await t.http.get('/api/v1/account').set('X-API-Key', key.key).expect(200);
    // Every in-process API of the run flushes the same Redis hash: wait for whichever took these counts.
    let after = before;
    for (let i = 0; i < 50 && after < before + 3; i++) {
      await t.app.get(RequestCounter).flush();
      after = await requestsToday(t, user.userId);
      if (after < before + 3) await new Promise((r) => setTimeout(r, 100));
    }
    expect(after).toBe(before + 3);
    const redisAfter = new Redis(process.env.REDIS_URL!);
    try {
      // Dropped, not put back for the next flush to fail on again (other apps of the run share the hash).
      expect(await redisAfter.hexists(`${t.config.redis.prefix}:usage:pending`, 'not-a-user|not-a-day')).toBe(0);
    } finally {
      redisAfter.disconnect();
    }
  });

  it('null, huge and non-finite numbers, NUL characters and bodies that are not objects are 400 naming the field', async () => {
    const keys = () =>
      t.http.post('/api/v1/keys').set('Authorization', `Bearer ${user.jwt}`).set('Content-Type', 'application/json');
    const cases: [string, string, string][] = [
      ['{"rate_limit_rpm":null}', 'rate_limit_rpm', 'validation_failed'],
      ['{"scopes":null}', 'scopes', 'validation_failed'],
      ['{"name":null}', 'name', 'validation_failed'],
      ['{"daily_quota":9223372036854775808}', 'daily_quota', 'validation_failed'],
      ['{"daily_quota":1e308}', 'daily_quota', 'validation_failed'],
      ['{"rate_limit_rpm":1.5}', 'rate_limit_rpm', 'validation_failed'],
      ['{"name":"a\\u0000b"}', 'name', 'validation_failed'],
      ['[1,2,3]', 'body', 'validation_failed'],
    ];
    for (const [body, field, code] of cases) {
      const res = await keys().send(body);
      expect({ body, status: res.status, code: res.body.code, fields: fieldsOf(res.body) }).toEqual({
        body,
        status: 400,
        code,
        fields: [field],
      });
    }
    for (const body of ['"just a string"', '42', 'null']) {
      const res = await keys().send(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }

    const job = await upload(t.http, key.key, [{ name: 'notes.md', content: '# Notes\n' }]).then((r) => r.body);
    for (const title of ['a\u0000b', 'line\nbreak', 'bell\u0007']) {
      const res = await t.http.patch(`/api/v1/jobs/${job.job_id}/title`).set('X-API-Key', key.key).send({ title });
      expect({ title, status: res.status, fields: fieldsOf(res.body) }).toEqual({
        title,
        status: 400,
        fields: ['title'],
      });
    }
    const field = await upload(t.http, key.key, [{ name: 'notes.md', content: '# x\n' }], { prompt: 'a\u0000b' });
    expect({ status: field.status, fields: fieldsOf(field.body) }).toEqual({ status: 400, fields: ['prompt'] });
  });

  it('a JSON body nested 100,000 deep, or over 1 MB, is refused before it is parsed', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const res = await t.http.post('/api/v1/auth/login').set('Content-Type', 'application/json').send(deep);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'malformed_request' });
    expect(res.body.detail).toMatch(/more than 32 levels/);
    const wide = JSON.stringify({ email: 'a@example.test', password: 'x'.repeat(2 * 1024 * 1024) });
    const large = await t.http.post('/api/v1/auth/login').set('Content-Type', 'application/json').send(wide);
    expect({ status: large.status, code: large.body.code }).toEqual({ status: 413, code: 'payload_too_large' });
  });

  it('an upload declaring more bytes than the limit is refused at once, before its body', async () => {
    const server = t.app.getHttpServer();
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const started = Date.now();
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/jobs/upload',
        headers: {
          'X-API-Key': key.key,
          'Content-Type': 'multipart/form-data; boundary=x',
          'Content-Length': String(300 * 1024 * 1024),
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write('--x\r\n'); // a few bytes of the 300 MB it announced, and no more
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).code).toBe('payload_too_large');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a Markdown result too large to render is refused before any work or charge, and the API goes on', async () => {
    const line = '| cell | another cell | a third cell with more words in it |\n';
    const markdown = '| a | b | c |\n| - | - | - |\n' + line.repeat(Math.ceil((65 * 1024 * 1024) / line.length));
    const uploaded = await upload(t.http, key.key, [{ name: 'huge.md', content: markdown }]);
    expect(uploaded.status).toBe(201);
    const job = uploaded.body.job_id as string;
    await t.http.post(`/api/v1/jobs/${job}/confirm`).set('X-API-Key', key.key).expect(200);
    await waitForJob(t.http, key.key, job, ['done'], 60_000);
    const before = (await t.http.get('/api/v1/account').set('X-API-Key', key.key)).body.balance as number;
    for (const format of ['docx', 'xlsx_basic']) {
      const res = await t.http.post(`/api/v1/jobs/${job}/convert`).set('X-API-Key', key.key).send({ format });
      expect({ format, status: res.status, code: res.body.code }).toEqual({
        format,
        status: 413,
        code: 'payload_too_large',
      });
      expect(res.body.detail).toMatch(/Download the Markdown instead/);
    }
    expect((await t.http.get('/api/v1/account').set('X-API-Key', key.key)).body.balance).toBe(before);
  });

  it('every answer is nosniff; API answers are not cached and may not be framed; Swagger UI has its policy', async () => {
    const uploaded = await upload(t.http, key.key, [{ name: 'report\u202efdp.md', content: '# Report\n' }]);
    const job = uploaded.body.job_id as string;
    await t.http.post(`/api/v1/jobs/${job}/confirm`).set('X-API-Key', key.key).expect(200);
    await waitForJob(t.http, key.key, job, ['done']);
    const download = await t.http.get(`/api/v1/jobs/${job}/download`).set('X-API-Key', key.key).expect(200);
    const account = await t.http.get('/api/v1/account').set('X-API-Key', key.key).expect(200);
    const problem = await t.http.get('/api/v1/jobs/not-a-job').set('X-API-Key', key.key);
    for (const res of [download, account, problem]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['content-security-policy']).toBe(API_CSP);
      expect(res.headers['x-frame-options']).toBe('DENY');
      // Never stored, so never revalidated: no body is hashed into an ETag.
      expect(res.headers.etag).toBeUndefined();
    }
    // The title carried a right-to-left override: the download name shows what the file is.
    expect(download.headers['content-disposition']).toBe('attachment; filename="reportfdp.md"');

    const docs = await t.http.get('/api/docs').expect(200);
    expect(docs.headers['content-security-policy']).toBe(DOCS_CSP);
    expect(docs.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(docs.headers['x-content-type-options']).toBe('nosniff');
  });
});

function fieldsOf(body: { errors?: { field: string }[] }): string[] {
  return [...new Set((body.errors ?? []).map((e) => e.field))];
}

async function requestsToday(t: TestApp, userId: string): Promise<number> {
  const rows: { requests: string }[] = await t.app
    .get(DataSource)
    .query(`SELECT requests FROM daily_usage WHERE user_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date`, [userId]);
  return rows.length === 0 ? 0 : Number(rows[0].requests);
}
