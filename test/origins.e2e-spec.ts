import { spawn } from 'node:child_process';
import { distEntry } from '@docconv/testing';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { createKey, signup } from './support/accounts';
import { makePdf } from './support/fixtures';
import { upload, waitForJob } from './support/jobs';
import { startStripeMock, type StripeMock } from './support/stripe';
import { createTestApp, type TestApp } from './support/test-app';

/** What a sender controls: the Host, the forwarded host and scheme (the test client is a trusted proxy), the Origin. */
const SENT = {
  Host: 'host.attacker.test',
  'X-Forwarded-Host': 'forwarded.attacker.test',
  'X-Forwarded-Proto': 'https',
  Origin: 'https://origin.attacker.test',
};
const PUBLIC = 'https://docconv.example.com';

/** The response's headers and body as one text, to look for any host the request named. */
function everything(res: Response): string {
  return `${JSON.stringify(res.headers)}\n${res.text ?? ''}\n${JSON.stringify(res.body ?? null)}`;
}

function expectNoSentOrigin(res: Response): void {
  expect(everything(res)).not.toMatch(/attacker\.test/);
}

function withSentHeaders<T extends { set(field: string, value: string): T }>(req: T): T {
  let out = req;
  for (const [name, value] of Object.entries(SENT)) out = out.set(name, value);
  return out;
}

describe('absolute links come from PUBLIC_BASE_URL only, never from a request header', () => {
  let stripeMock: StripeMock;
  /** Without PUBLIC_BASE_URL (as the suite runs) and with one. */
  let bare: TestApp;
  let configured: TestApp;

  beforeAll(async () => {
    stripeMock = await startStripeMock();
    bare = await createTestApp({}, { ...process.env, ...stripeMock.env, PUBLIC_BASE_URL: '' });
    configured = await createTestApp({}, { ...process.env, ...stripeMock.env, PUBLIC_BASE_URL: `${PUBLIC}/` });
  });
  afterAll(async () => {
    await bare?.close();
    await configured?.close();
    await stripeMock?.close();
  });

  it('checkout returns to PUBLIC_BASE_URL whatever Host, X-Forwarded-Host and Origin say; without it, 503 and Stripe is not asked', async () => {
    const buyer = await signup(configured.http, 'origin-buyer');
    const key = await createKey(configured.http, buyer, { scopes: ['jobs:read'] });
    const credentials: [string, string][] = [
      ['Authorization', `Bearer ${buyer.jwt}`],
      ['X-API-Key', key.key],
    ];
    for (const credential of credentials) {
      const res = await withSentHeaders(configured.http.post('/api/v1/payments/checkout'))
        .set(...credential)
        .send({ usd: 5 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success_url: `${PUBLIC}/?checkout=success#/account`,
        cancel_url: `${PUBLIC}/?checkout=cancelled#/account`,
      });
      expectNoSentOrigin(res);
      const sent = Object.fromEntries(stripeMock.calls.at(-1)!.form);
      expect([sent.success_url, sent.cancel_url]).toEqual([res.body.success_url, res.body.cancel_url]);
    }

    // No public address: nowhere safe to send the buyer back to, so no checkout is offered or opened.
    const pricing = await bare.http.get('/api/v1/pricing').expect(200);
    expect(pricing.body.payments.available).toBe(false);
    const user = await signup(bare.http, 'origin-nobase');
    const before = stripeMock.calls.length;
    for (const req of [
      withSentHeaders(bare.http.post('/api/v1/payments/checkout')),
      bare.http.post('/api/v1/payments/checkout').set('Origin', SENT.Origin),
      bare.http.post('/api/v1/payments/checkout'),
    ]) {
      const res = await req.set('Authorization', `Bearer ${user.jwt}`).send({ usd: 5 });
      expect([res.status, res.headers['content-type']]).toEqual([
        503,
        expect.stringContaining('application/problem+json'),
      ]);
      expect(res.body).toMatchObject({
        code: 'service_unavailable',
        detail: expect.stringContaining('PUBLIC_BASE_URL'),
      });
      expectNoSentOrigin(res);
    }
    expect(stripeMock.calls.length).toBe(before);
  });

  it('download links start with PUBLIC_BASE_URL, or are path-absolute without it, whatever the request said', async () => {
    const db = bare.app.get(DataSource);
    const user = await signup(bare.http, 'origin-links');
    await db.query('UPDATE users SET points_balance = 100000 WHERE id = $1', [user.userId]);
    const key = await createKey(bare.http, user, { rate_limit_rpm: 100_000 });
    const uploaded = await upload(bare.http, key.key, [
      { name: 'memo.pdf', content: await makePdf(['A linked page.']) },
    ]);
    expect(uploaded.status).toBe(201);
    const jobId = uploaded.body.job_id as string;
    await bare.http.post(`/api/v1/jobs/${jobId}/confirm`).set('X-API-Key', key.key).expect(200);
    expect((await waitForJob(bare.http, key.key, jobId, ['done', 'error'])).status).toBe('done');

    for (const [app, expected] of [
      [bare, /^\/api\/v1\/files\/results\/[0-9a-f-]{36}\/result\.docx\?expires=\d+&token=[0-9a-f]{64}/],
      [
        configured,
        new RegExp(`^${PUBLIC}/api/v1/files/results/[0-9a-f-]{36}/result\\.docx\\?expires=\\d+&token=[0-9a-f]{64}`),
      ],
    ] as const) {
      for (const req of [
        withSentHeaders(app.http.post(`/api/v1/jobs/${jobId}/convert`)),
        app.http.post(`/api/v1/jobs/${jobId}/convert`).set('Host', SENT.Host),
        app.http.post(`/api/v1/jobs/${jobId}/convert`).set('X-Forwarded-Host', SENT['X-Forwarded-Host']),
      ]) {
        const res = await req.set('X-API-Key', key.key).send({ format: 'docx' });
        expect(res.status).toBe(200);
        expect(res.body.download_url).toMatch(expected);
        expectNoSentOrigin(res);
      }
    }
    // The path-absolute link works where the API was called.
    const link = (
      await bare.http.post(`/api/v1/jobs/${jobId}/convert`).set('X-API-Key', key.key).send({ format: 'docx' })
    ).body.download_url as string;
    const file = await bare.http.get(link).expect(200);
    expect(file.headers['content-disposition']).toMatch(/attachment/);
  });

  it("the API document's servers name PUBLIC_BASE_URL, or '/' without it, whatever the request said", async () => {
    for (const [app, servers] of [
      [bare, [{ url: '/' }]],
      [configured, [{ url: PUBLIC }]],
    ] as const) {
      const res = await withSentHeaders(app.http.get('/api/v1/openapi.json')).expect(200);
      expect(res.body.servers).toEqual(servers);
      expectNoSentOrigin(res);
      const yaml = await withSentHeaders(app.http.get('/api/v1/openapi.yaml')).expect(200);
      expectNoSentOrigin(yaml);
    }
  });

  it('no response, redirect or page names a host the request sent', async () => {
    const paths = [
      '/',
      '/index.html',
      '/api',
      '/api/',
      '/api/v1',
      '/api/v1/',
      '/api/docs',
      '/api/docs/',
      '/api/docs/index.html',
      '/api/docs/swagger-ui-init.js',
      '/api/v1/health',
      '/api/v1/pricing',
      '/api/v1/capabilities',
      '/api/v1/files/results/x/result.docx',
      '/api/v1/jobs',
      '/admin/queues',
      '/metrics',
      '/nowhere',
    ];
    for (const app of [bare, configured]) {
      for (const path of paths) {
        const res = await withSentHeaders(app.http.get(path));
        expect([path, res.status < 500]).toEqual([path, true]);
        expect([path, everything(res)]).not.toEqual([path, expect.stringMatching(/attacker\.test/)]);
        if (res.headers.location !== undefined) {
          expect([path, res.headers.location]).toEqual([
            path,
            expect.stringMatching(/^(\/|https:\/\/docconv\.example\.com)/),
          ]);
        }
      }
    }
  });

  /** Runs an entry point of the build with `env` and reports how it ended and what it wrote. */
  function start(app: 'api' | 'worker', env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [distEntry(app)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGTERM'), 30_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
    });
  }

  it('in production, the API and the worker refuse to start without PUBLIC_BASE_URL and say why', async () => {
    for (const app of ['api', 'worker'] as const) {
      const { code, output } = await start(app, {
        ...process.env,
        NODE_ENV: 'production',
        PUBLIC_BASE_URL: '',
        PORT: '0',
        LOG_FORMAT: 'json',
        // Apart from the suite's queues, should one start after all.
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}-production-start`,
      });
      expect([app, code]).toEqual([app, 78]);
      expect(output).toContain(
        'PUBLIC_BASE_URL is required when NODE_ENV=production: set it to the address clients reach the service at',
      );
      expect(output).toContain('never built from the Host, X-Forwarded-Host or Origin a request sends');
    }
  });
});
