import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@docconv/testing';
import {
  confirm,
  convert,
  createClient,
  createKey,
  DocconvError,
  downloadConverted,
  downloadMarkdown,
  login,
  normaliseJob,
  normalisePreview,
  signup,
  uploadFiles,
  waitForJob,
  type DocconvClient,
  type Job,
} from '../clients/typescript/src';
import { makeMixedPdf } from './support/fixtures';
import { createTestApp, uniqueEmail, type TestApp } from './support/test-app';

const CLIENT_ROOT = join(REPO_ROOT, 'clients', 'typescript');

describe('SDK types', () => {
  it('schema.d.ts is what openapi-typescript generates from openapi.json (run `npm run openapi` when this fails)', () => {
    const generated = spawnSync(process.execPath, [join(CLIENT_ROOT, 'scripts', 'generate-schema.mjs'), '--stdout'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(generated.stderr).toBe('');
    expect(generated.status).toBe(0);
    expect(readFileSync(join(CLIENT_ROOT, 'src', 'schema.d.ts'), 'utf8')).toBe(generated.stdout);
  });
});

describe('SDK normalisation of older response forms (spec 2.3, 9)', () => {
  it('fills the fields an older upload preview omits with their defaults', () => {
    const trimmed = {
      job_id: '3f1c0d2e-0000-4000-8000-000000000001',
      status: 'pending' as const,
      file_type: 'pdf',
      total_pages: 12,
      total_files: 1,
      media_duration_seconds: 0,
      ocr_model: 'basic' as const,
      ocr_engine: 'tesseract' as const,
      cost: { points: 1234 },
      balance: 5000,
    };
    expect(normalisePreview(trimmed)).toEqual({
      ...trimmed,
      docling_refinement: false,
      docling_refinement_pages: 0,
      has_media: false,
      expires_at: null,
      cost: {
        pages: 12,
        image_count: 0,
        audio_seconds: 0,
        video_seconds: 0,
        ocr_model: 'basic',
        free_pages_used: 0,
        points: 1234,
        usd: '$1.234',
      },
    });
  });

  it('keeps what the service sent and derives has_media from the media duration', () => {
    const preview = normalisePreview({
      job_id: 'j',
      media_duration_seconds: 90,
      docling_refinement: true,
      docling_refinement_pages: 4,
      cost: { points: 10_000, usd: '$10.00', free_pages_used: 3 },
    });
    expect(preview).toMatchObject({ has_media: true, docling_refinement: true, docling_refinement_pages: 4 });
    expect(preview.cost).toMatchObject({ points: 10_000, usd: '$10.00', free_pages_used: 3 });
  });

  it('fills job fields an older service does not send', () => {
    const job = normaliseJob({ job_id: 'j', status: 'done', total_pages: 3, done_pages: 3 });
    expect(job).toMatchObject({
      downloadable: true,
      refunded_points: 0,
      retry_count: 0,
      xlsx_basic_converted: false,
      xlsx_advanced_status: null,
      error_log: null,
      done_pages: 3,
    });
  });
});

describe('SDK against the running service', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(() => t.close());

  /** A client with a fresh account's new API key. */
  async function keyedClient(): Promise<DocconvClient> {
    const anonymous = createClient({ baseUrl });
    const session = await signup(anonymous, { email: uniqueEmail('sdk'), password: 'correct horse battery' });
    const key = await createKey(anonymous, session, { rateLimitRpm: 10_000 });
    return createClient({ baseUrl, apiKey: key.key });
  }

  it('runs the whole flow: sign-up, log-in, key, upload, confirm, progress, Markdown, DOCX', async () => {
    const anonymous = createClient({ baseUrl: `${baseUrl}/api/v1/` });
    const credentials = { email: uniqueEmail('sdk-flow'), password: 'correct horse battery' };
    const created = await signup(anonymous, credentials);
    expect(created.user_id).toMatch(/^[0-9a-f-]{36}$/);
    const session = await login(anonymous, credentials);
    expect(session.access_token.split('.')).toHaveLength(3); // a JWT
    const key = await createKey(anonymous, session, { name: 'sdk test', rateLimitRpm: 10_000 });
    expect(key).toMatchObject({ name: 'sdk test', is_active: true, scopes: ['jobs:read', 'jobs:write'] });

    const client = createClient({ baseUrl, apiKey: key.key });
    // Typed pages, then a few scanned ones: OCR makes the job last long enough to report progress.
    const pages = [
      ...Array.from({ length: 20 }, (_, i) => ({ text: `Page ${i + 1} of the quarterly report from the SDK.` })),
      ...Array.from({ length: 4 }, (_, i) => ({ scan: `Scanned appendix ${i + 1}` })),
    ];
    const preview = await uploadFiles(client, [{ name: 'report.pdf', data: await makeMixedPdf(pages) }], {
      model: 'basic',
    });
    expect(preview).toMatchObject({ status: 'pending', file_type: 'pdf', total_pages: 24, total_files: 1 });
    expect(preview.cost).toMatchObject({ ocr_model: 'basic', free_pages_used: 24, points: 0, usd: '$0.00' });

    const once = { idempotencyKey: `confirm-${preview.job_id}` };
    const confirmation = await confirm(client, preview.job_id, once);
    expect(confirmation).toMatchObject({ job_id: preview.job_id, status: 'queued' });
    // The same key replays the first answer instead of refusing a job that is no longer pending.
    expect(await confirm(client, preview.job_id, once)).toEqual(confirmation);
    await expect(confirm(client, preview.job_id)).rejects.toMatchObject({ status: 400 });

    const seen: Job[] = [];
    const done = await waitForJob(client, preview.job_id, { onProgress: (job) => seen.push(job), intervalMs: 50 });
    expect(done).toMatchObject({ status: 'done', done_pages: 24, total_pages: 24, downloadable: true });
    const donePages = seen.map((job) => job.done_pages);
    expect(donePages).toEqual([...donePages].sort((a, b) => a - b)); // never goes back
    expect(donePages.at(-1)).toBe(24);
    expect(donePages.some((n) => n > 0 && n < 24)).toBe(true); // progress was seen between start and end
    expect(seen.at(-1)).toBe(done);

    const markdown = await downloadMarkdown(client, preview.job_id);
    expect(markdown).toContain('Page 1 of the quarterly report from the SDK.');
    expect(markdown).toContain('Page 20 of the quarterly report from the SDK.');

    const conversion = await convert(client, preview.job_id, 'docx');
    expect(conversion.format).toBe('docx');
    expect(conversion.download_url.startsWith(`${baseUrl}/`)).toBe(true);
    const docx = await downloadConverted(client, conversion);
    expect(Buffer.from(docx.subarray(0, 2)).toString()).toBe('PK');
  }, 120_000);

  it('uploads from a path on disk, sending the options as form fields', async () => {
    const client = await keyedClient();
    const folder = await mkdtemp(join(tmpdir(), 'docconv-sdk-'));
    try {
      const path = join(folder, 'notes.md');
      await writeFile(path, '# Notes\n\nFrom a file on disk.\n');
      const preview = await uploadFiles(client, [path], { model: 'basic', engine: 'tesseract', columns: ['a', 'b'] });
      expect(preview).toMatchObject({
        file_type: 'mixed',
        total_files: 1,
        ocr_model: 'basic',
        ocr_engine: 'tesseract',
      });
      expect((await client.getJob(preview.job_id)).filename).toBe('notes.md');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('throws DocconvError with the problem’s status, title, detail and code', async () => {
    const badKey = createClient({ baseUrl, apiKey: 'dcv_not_a_real_key' });
    const unauthorized = await badKey.getAccount().catch((error: unknown) => error);
    expect(unauthorized).toBeInstanceOf(DocconvError);
    expect(unauthorized).toMatchObject({ status: 401, code: 'unauthorized', title: 'Unauthorized' });
    expect((unauthorized as DocconvError).detail.length).toBeGreaterThan(0);

    const wrongPassword = login(createClient({ baseUrl }), {
      email: uniqueEmail('nobody'),
      password: 'not the one 123',
    });
    await expect(wrongPassword).rejects.toMatchObject({ status: 401, code: 'invalid_credentials' });

    const client = await keyedClient();
    const invalid = uploadFiles(client, [{ name: 'a.md', data: Buffer.from('# a') }], { dpi: 5 });
    await expect(invalid).rejects.toMatchObject({ status: 400, code: 'validation_failed' });
    await expect(invalid).rejects.toHaveProperty('errors', [expect.objectContaining({ field: 'dpi' })]);

    const unreachable = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'dcv_x' }).getAccount();
    await expect(unreachable).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('refuses to wait for a job that has not been confirmed', async () => {
    const client = await keyedClient();
    const preview = await uploadFiles(client, [{ name: 'wait.md', data: Buffer.from('# waiting') }]);
    await expect(waitForJob(client, preview.job_id, { intervalMs: 10 })).rejects.toMatchObject({
      code: 'job_pending',
    });
  });
});
