import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { distEntry, REPO_ROOT } from '@docconv/testing';
import { generateOpenApiDocument } from '../apps/api/src/openapi/openapi-document';
import { createTestApp, type TestApp } from './support/test-app';

describe('foundation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('closing the application closes its HTTP server, also when the server was made to listen directly', async () => {
    const other = await createTestApp();
    const server = other.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await expect(fetch(`http://127.0.0.1:${port}/api/v1/health`).then((r) => r.status)).resolves.toBe(200);
    await other.close();
    expect(server.listening).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/api/v1/health`)).rejects.toThrow();
  });

  it('liveness answers without a credential', async () => {
    const res = await t.http.get('/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('readiness reports PostgreSQL, Redis, storage and the running worker up', async () => {
    const res = await t.http.get('/api/v1/health/ready');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    for (const check of ['database', 'redis', 'storage', 'worker']) expect(res.body.details[check].status).toBe('up');
    expect(res.body.details.worker.workers).toBeGreaterThanOrEqual(1);
  });

  it('echoes a request id, generating one when the client sends none', async () => {
    const generated = await t.http.get('/api/v1/health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.http.get('/api/v1/health').set('X-Request-Id', 'client-trace-42');
    expect(echoed.headers['x-request-id']).toBe('client-trace-42');
    const refused = await t.http.get('/api/v1/health').set('X-Request-Id', 'bad id with spaces');
    expect(refused.headers['x-request-id']).not.toBe('bad id with spaces');
  });

  it('serves Swagger UI and the OpenAPI document', async () => {
    const ui = await t.http.get('/api/docs');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger-ui');
    const doc = await t.http.get('/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.paths['/api/v1/health/ready']).toBeDefined();
  });

  it('the committed openapi.json is current (run `npm run openapi` when this fails)', async () => {
    const committed: unknown = JSON.parse(readFileSync(join(REPO_ROOT, 'openapi.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(await generateOpenApiDocument())));
  });
});

describe('configuration is validated at boot', () => {
  it.each(['api', 'worker'] as const)('the %s refuses to start without JWT_SECRET and names it', (app) => {
    const env = { ...process.env };
    delete env.JWT_SECRET;
    env.PORT = 'not-a-port';
    const result = spawnSync(process.execPath, [distEntry(app)], { env, encoding: 'utf8', timeout: 30_000 });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('JWT_SECRET is required');
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).not.toMatch(/\n\s+at /); // one message, no stack trace
  });
});
