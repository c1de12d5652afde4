import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_CSP } from '../apps/api/src/http/security-headers';
import { createTestApp, type TestApp } from './support/test-app';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-abc.js"></script></head></html>';
const SCRIPT = 'console.log("console");\n';

describe('the web console served at / beside the API', () => {
  let folder: string;
  let t: TestApp;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'docconv-console-'));
    await mkdir(join(folder, 'assets'));
    await writeFile(join(folder, 'index.html'), INDEX);
    await writeFile(join(folder, 'assets', 'app-abc.js'), SCRIPT);
    await writeFile(join(folder, '.env'), 'SECRET=1\n');
    t = await createTestApp({}, { ...process.env, CONSOLE_DIR: folder });
  });
  afterAll(async () => {
    await t.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('serves index.html at / with the security headers, revalidated on every load', async () => {
    const res = await t.http.get('/').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toBe(INDEX);
    expect(res.headers['content-security-policy']).toBe(CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect((await t.http.get('/index.html').expect(200)).headers['cache-control']).toBe('no-cache');
  });

  it('serves the hashed assets as JavaScript, cached for good', async () => {
    const res = await t.http.get('/assets/app-abc.js').expect(200);
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.text).toBe(SCRIPT);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-security-policy']).toBe(CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('does not serve dotfiles or missing files, and leaves /api to the API', async () => {
    for (const path of ['/.env', '/assets/missing.js', '/no/such/page']) {
      // The console's own not-found page: a page of its own, under its policy, with no script.
      const missing = await t.http.get(path);
      expect({ path, status: missing.status }).toEqual({ path, status: 404 });
      expect(missing.headers['content-type']).toMatch(/^text\/html/);
      expect(missing.headers['content-security-policy']).toBe(CSP);
      expect(missing.headers['x-content-type-options']).toBe('nosniff');
      expect(missing.text).toContain('Page not found');
      expect(missing.text).not.toMatch(/<script/i);
    }
    // Under /api, whatever the version, a missing address is a problem like every other error.
    for (const path of ['/api/nope', '/api/v2/jobs', '/api']) {
      const missing = await t.http.get(path);
      expect({ path, status: missing.status, code: missing.body.code }).toEqual({
        path,
        status: 404,
        code: 'not_found',
      });
      expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    }

    const unknown = await t.http.get('/api/v1/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(unknown.body.code).toBe('not_found');
    expect(unknown.headers['content-security-policy']).toBe(API_CSP);

    const health = await t.http.get('/api/v1/health');
    expect(health.status).toBe(200);
    expect(health.headers['content-security-policy']).toBe(API_CSP);
    expect(health.headers['cache-control']).toBe('private, no-store');
  });

  it('never looks under /api on disk: a file that appears at an API path after start is not served', async () => {
    // The build is checked for an api entry at start; one added later would be found only by a
    // handler that looks each request's path up on disk.
    await mkdir(join(folder, 'api', 'v1'), { recursive: true });
    await writeFile(join(folder, 'api', 'v1', 'health'), 'from the disk\n');
    try {
      const health = await t.http.get('/api/v1/health').expect(200);
      expect(health.headers['content-type']).toMatch(/^application\/json/);
      expect(health.headers['content-security-policy']).toBe(API_CSP);
      expect(health.text).not.toContain('from the disk');
    } finally {
      await rm(join(folder, 'api'), { recursive: true, force: true });
    }
  });
});

describe('without a console build', () => {
  let folder: string;
  let t: TestApp;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'docconv-console-empty-'));
    t = await createTestApp({}, { ...process.env, CONSOLE_DIR: folder });
  });
  afterAll(async () => {
    await t.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('serves nothing at / and the API as before', async () => {
    const root = await t.http.get('/');
    expect(root.status).toBe(404);
    expect(root.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(root.body.code).toBe('not_found');
    expect(root.headers['content-security-policy']).not.toBe(CSP);
    const unknown = await t.http.get('/api/v1/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
