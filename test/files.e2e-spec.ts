import { createHmac, randomUUID } from 'node:crypto';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Storage } from '@docconv/storage';
import { createTestApp, type TestApp } from './support/test-app';

/** Bytes that are not text, so any re-encoding on the way shows. */
const WORKBOOK = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7919) % 256));

interface RawResponse {
  status: number;
  contentType: string | undefined;
  body: string;
}

describe('signed file downloads (GET /api/v1/files/*path)', () => {
  let t: TestApp;
  let storage: Storage;
  let port: number;
  const job = randomUUID();
  const resultPath = `results/${job}/result.md`;
  const workbookPath = `results/${job}/result.xlsx`;
  const inputPath = `inputs/${job}/1-secret.pdf`;
  const probePath = `health/${job}`;

  beforeAll(async () => {
    t = await createTestApp();
    storage = t.app.get(Storage);
    await storage.put(resultPath, Buffer.from('# Quarterly report\n', 'utf8'));
    await storage.put(workbookPath, WORKBOOK);
    await storage.put(inputPath, Buffer.from('%PDF-1.7 secret input'));
    await storage.put(probePath, Buffer.from('probe'));
    const server = t.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  /** A link as the documented format makes it, for any path and expiry, signed with the server's secret. */
  function craftedLink(path: string, expires: number, encodedPath = path): string {
    const token = createHmac('sha256', t.config.storage.fileUrlSecret).update(`${path}\n${expires}`).digest('hex');
    return `/api/v1/files/${encodedPath}?expires=${expires}&token=${token}`;
  }

  /** Within the links' lifetime (SIGNED_URL_TTL_SECONDS, 900 s in the tests). */
  const inTenMinutes = (): number => Math.floor(Date.now() / 1000) + 600;

  /** A GET whose path reaches the server exactly as written: no client folds `..` or `//` away. */
  function rawGet(pathAndQuery: string): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, path: pathAndQuery });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            contentType: response.headers['content-type'],
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      });
      request.on('error', reject);
      request.end();
    });
  }

  function expectRefused(response: { status: number; headers: Record<string, string>; body: unknown }): void {
    expect(response.status).toBe(403);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status: 403, code: 'signed_url_invalid' });
    expect((response.body as { detail: string }).detail).toMatch(/Ask for a new download link\.$/);
  }

  it('downloads a result through its signed link, as an attachment under the signed name', async () => {
    const url = await storage.signedUrl(resultPath, { filename: 'Quarterly report.md' });
    expect(url).toMatch(new RegExp(`^/api/v1/files/${resultPath}\\?expires=\\d+&token=[0-9a-f]{64}&filename=`));
    const response = await t.http.get(url).expect(200);
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="Quarterly report.md"');
    expect(response.text).toBe('# Quarterly report\n');
  });

  it('serves binary results byte for byte with their media type, and without a name when none was signed', async () => {
    const response = await t.http
      .get(await storage.signedUrl(workbookPath, {}))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toBeUndefined();
    expect((response.body as Buffer).equals(WORKBOOK)).toBe(true);
  });

  it('refuses an expired link, even one whose token is right for its expiry', async () => {
    const expired = Math.floor(Date.now() / 1000) - 60;
    const response = await t.http.get(craftedLink(resultPath, expired));
    expectRefused(response);
    expect(response.body.detail).toMatch(/^This download link expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d UTC\./);
  });

  it('refuses a validly signed link whose expiry is further away than the links of the service last', async () => {
    for (const expires of [Math.floor(Date.now() / 1000) + t.config.storage.signedUrlTtlSeconds + 120, 4_102_444_800]) {
      const response = await t.http.get(craftedLink(resultPath, expires));
      expectRefused(response);
      expect(response.body.detail).toMatch(/claims to last longer than the \d+ s links of this service last/);
    }
    // The same link within the lifetime is served.
    await t.http.get(craftedLink(resultPath, inTenMinutes())).expect(200);
  });

  it('refuses a link whose token was altered', async () => {
    const url = await storage.signedUrl(resultPath, {});
    const altered = url.replace(/token=([0-9a-f])/, (_, first: string) => `token=${first === '0' ? '1' : '0'}`);
    expect(altered).not.toBe(url);
    expectRefused(await t.http.get(altered));
  });

  it('refuses a link whose path was changed to another stored file', async () => {
    const url = await storage.signedUrl(resultPath, {});
    const response = await t.http.get(url.replace(resultPath, inputPath));
    expectRefused(response);
    expect(JSON.stringify(response.body)).not.toContain('secret input');
  });

  it('refuses a link whose expiry or download name was changed', async () => {
    const url = await storage.signedUrl(resultPath, { filename: 'Report.md' });
    expectRefused(await t.http.get(url.replace(/expires=\d+/, `expires=${inTenMinutes() + 86_400}`)));
    expectRefused(await t.http.get(url.replace('filename=Report.md', 'filename=Other.md')));
  });

  it('refuses a link without a token or expiry', async () => {
    expectRefused(await t.http.get(`/api/v1/files/${resultPath}`));
    expectRefused(await t.http.get(`/api/v1/files/${resultPath}?expires=${inTenMinutes()}`));
    const response = await t.http.get((await storage.signedUrl(resultPath, {})).replace(/&token=[0-9a-f]+/, ''));
    expectRefused(response);
    expect(response.body.detail).toMatch(/incomplete/);
  });

  it.each([
    ['a storage probe', (id: string) => ({ path: `health/${id}` })],
    ['a path climbing out of results', (id: string) => ({ path: `results/../inputs/${id}/1-secret.pdf` })],
    [
      'a path climbing out of results in one encoded segment',
      (id: string) => ({
        path: `results/../inputs/${id}/1-secret.pdf`,
        encoded: `results%2F..%2Finputs%2F${id}%2F1-secret.pdf`,
      }),
    ],
    ['an absolute path', () => ({ path: '/etc/passwd', encoded: '%2Fetc%2Fpasswd' })],
    ['an absolute path after a doubled slash', () => ({ path: '/etc/passwd', encoded: '/etc/passwd' })],
    ['a path outside the storage roots', () => ({ path: 'etc/passwd' })],
  ])('never serves %s, even with a token signed for it', async (_, target) => {
    const { path, encoded } = target(job) as { path: string; encoded?: string };
    const response = await rawGet(craftedLink(path, inTenMinutes(), encoded));
    expect(response.status).toBe(403);
    expect(response.contentType).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'signed_url_invalid' });
    expect(response.body).not.toMatch(/probe"|secret input|root:/);
  });

  it('answers 404 for a valid link to a file that no longer exists', async () => {
    const gone = `results/${randomUUID()}/result.md`;
    const response = await t.http.get(await storage.signedUrl(gone, {}));
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('is documented in OpenAPI as a public route with its refusals', async () => {
    const document = (await t.http.get('/api/v1/openapi.json').expect(200)).body;
    const operation = document.paths['/api/v1/files/{path}']?.get;
    expect(operation).toBeDefined();
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '403', '404']));
    expect(operation.security ?? []).toEqual([]);
  });
});
