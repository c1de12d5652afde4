import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerService } from '@docconv/billing';
import { REPO_ROOT } from '@docconv/testing';
import {
  allChunks,
  confirm,
  conversionPrice,
  convert,
  createClient,
  createKey,
  DocconvError,
  downloadConverted,
  downloadMarkdown,
  listSessions,
  listChunks,
  login,
  logout,
  normaliseJob,
  normalisePreview,
  refresh,
  signup,
  streamJobEvents,
  unwrap,
  uploadFiles,
  waitForJob,
  type Chunk,
  type DeliveredPage,
  type DocconvClient,
  type Job,
  type JobEvent,
  type Pricing,
} from '../clients/typescript/src';
import { EventStreamParser, type EventStreamMessage } from '../clients/typescript/src/events';
import { makeMixedPdf, makePdf } from './support/fixtures';
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
      page_furniture: 'drop',
      html_content: 'main',
      docling_refinement: false,
      docling_refinement_pages: 0,
      has_media: false,
      expires_at: null,
      files: [],
      skipped_files: [],
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
      conversion_units: 3,
    });
  });

  it('counts at least one conversion unit when an older service sends none, and keeps the one it sends', () => {
    expect(normaliseJob({ job_id: 'j', status: 'done' }).conversion_units).toBe(1);
    expect(normaliseJob({ job_id: 'j', status: 'done', total_pages: 0 }).conversion_units).toBe(1);
    expect(normaliseJob({ job_id: 'j', status: 'done', total_pages: 2, conversion_units: 5 }).conversion_units).toBe(5);
  });
});

describe('SDK event-stream parser', () => {
  const snapshot = (status: string, done: number) => ({
    job_id: 'j',
    status,
    done_pages: done,
    total_pages: 3,
    done_files: 0,
    total_files: 1,
    xlsx_advanced_status: null,
  });
  const STREAM =
    ':ok\r\n\r\n' + // a comment-only block dispatches nothing
    `event: status\r\ndata: ${JSON.stringify(snapshot('pending', 0))}\r\n\r\n` +
    ': heartbeat\n\n' +
    `event:progress\ndata:${JSON.stringify(snapshot('processing', 2))}\nid: 7\n\n` +
    'data: first line\rdata:  second line\r\r' + // CR line ends; only one leading space is dropped
    'event: empty\ndata\n\n' + // a data field without a colon is an empty line of data
    'event: no data\n\n' + // an event without data is not dispatched
    `event: status\ndata: {"job_id":"j",\ndata: "status":"done"}\n\n` +
    'data: cut short by the end of the stream\n';
  const EXPECTED: EventStreamMessage[] = [
    { event: 'status', data: JSON.stringify(snapshot('pending', 0)), id: '' },
    { event: 'progress', data: JSON.stringify(snapshot('processing', 2)), id: '7' },
    { event: 'message', data: 'first line\n second line', id: '7' },
    { event: 'empty', data: '', id: '7' },
    { event: 'status', data: '{"job_id":"j",\n"status":"done"}', id: '7' },
  ];

  function parse(chunks: string[]): EventStreamMessage[] {
    const messages: EventStreamMessage[] = [];
    const parser = new EventStreamParser((message) => messages.push(message));
    for (const chunk of chunks) parser.push(chunk);
    parser.end();
    return messages;
  }

  it('reads events, comments, CRLF and CR line ends, multi-line data and ids', () => {
    expect(parse([STREAM])).toEqual(EXPECTED);
  });

  it('gives the same events however the text is split into chunks', () => {
    expect(parse([...STREAM])).toEqual(EXPECTED); // one character at a time
    for (let cut = 1; cut < STREAM.length; cut++) {
      expect({ cut, messages: parse([STREAM.slice(0, cut), STREAM.slice(cut)]) }).toEqual({ cut, messages: EXPECTED });
    }
    expect(parse(['data: a\r', '\n', '\r', '\ndata: b\r', '\r'])).toEqual([
      { event: 'message', data: 'a', id: '' },
      { event: 'message', data: 'b', id: '' },
    ]);
  });

  it('reads a last line ended by a CR when the stream ends', () => {
    expect(parse(['data: x\n\r'])).toEqual([{ event: 'message', data: 'x', id: '' }]);
  });
});

describe('SDK streamJobEvents over a stand-in transport', () => {
  const snapshot = { job_id: 'j', status: 'processing', done_pages: 1, total_pages: 2, done_files: 0, total_files: 1 };

  /** A client whose fetch answers with these byte chunks as an event stream, then (unless `open`) ends it. */
  function streamingClient(chunks: Uint8Array[], open = false): { client: DocconvClient; cancelled: () => boolean } {
    let cancelled = false;
    const fetch = async (request: Request) =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            if (!open) controller.close();
            request.signal.addEventListener('abort', () => controller.error(request.signal.reason));
          },
          cancel() {
            cancelled = true;
          },
        }),
        { headers: { 'Content-Type': 'text/event-stream' } },
      );
    return { client: createClient({ baseUrl: 'http://docconv.test', fetch }), cancelled: () => cancelled };
  }

  it('decodes UTF-8 split across chunks and ignores events it does not know', async () => {
    const bytes = new TextEncoder().encode(
      `event: progress\ndata: ${JSON.stringify({ ...snapshot, note: 'é' })}\n\nevent: other\ndata: {}\n\n` +
        `event: status\ndata: ${JSON.stringify({ ...snapshot, status: 'done', done_pages: 2 })}\n\n`,
    );
    const split = bytes.indexOf(0xc3) + 1; // inside the two bytes of é
    const { client } = streamingClient([bytes.subarray(0, split), bytes.subarray(split)]);
    const events: JobEvent[] = [];
    const last = await streamJobEvents(client, 'j', { onEvent: (event) => events.push(event) });
    expect(events.map((e) => [e.type, e.job.status, e.job.done_pages])).toEqual([
      ['progress', 'processing', 1],
      ['status', 'done', 2],
    ]);
    expect(events[0].job).toEqual({ ...snapshot, xlsx_advanced_status: null });
    expect(last).toEqual(events[1].job);
  });

  it('rejects with the AbortError when the signal aborts, and closes the stream', async () => {
    const { client } = streamingClient(
      [new TextEncoder().encode(`event: status\ndata: ${JSON.stringify(snapshot)}\n\n`)],
      true,
    );
    const abort = new AbortController();
    const following = streamJobEvents(client, 'j', { onEvent: () => abort.abort(), signal: abort.signal });
    await expect(following).rejects.toHaveProperty('name', 'AbortError');

    const before = new AbortController();
    before.abort();
    await expect(streamJobEvents(client, 'j', { signal: before.signal })).rejects.toHaveProperty('name', 'AbortError');
  });

  it('closes the stream and rejects with what onEvent throws', async () => {
    const { client, cancelled } = streamingClient(
      [new TextEncoder().encode(`event: status\ndata: ${JSON.stringify(snapshot)}\n\n`)],
      true,
    );
    const failing = streamJobEvents(client, 'j', {
      onEvent: () => {
        throw new Error('the listener failed');
      },
    });
    await expect(failing).rejects.toThrow('the listener failed');
    expect(cancelled()).toBe(true);
  });

  it('refuses data that is not a job snapshot, and a stream that ends without one', async () => {
    const garbled = streamingClient([new TextEncoder().encode('event: status\ndata: {"nope":1}\n\n')]).client;
    await expect(streamJobEvents(garbled, 'j')).rejects.toMatchObject({ code: 'invalid_response' });
    const empty = streamingClient([new TextEncoder().encode(': nothing to say\n\n')]).client;
    await expect(streamJobEvents(empty, 'j')).rejects.toMatchObject({ code: 'invalid_response' });
  });
});

describe('SDK conversionPrice', () => {
  const pricing = {
    conversions: { xlsx_basic_unit: 1, xlsx_advanced_unit: 3, docx: 0, pptx: 0, hwpx: 0 },
  } as Pricing;
  const job = { conversion_units: 7, xlsx_basic_converted: false, xlsx_advanced_converted: false };

  it('charges units times the unit price for the first XLSX of each kind, nothing for DOCX and PPTX', () => {
    expect(conversionPrice(pricing, job, 'xlsx_basic')).toBe(7);
    expect(conversionPrice(pricing, job, 'xlsx_advanced')).toBe(21);
    expect(conversionPrice(pricing, job, 'docx')).toBe(0);
    expect(conversionPrice(pricing, job, 'pptx')).toBe(0);
  });

  it('charges nothing for a format the job has already', () => {
    expect(conversionPrice(pricing, { ...job, xlsx_basic_converted: true }, 'xlsx_basic')).toBe(0);
    expect(conversionPrice(pricing, { ...job, xlsx_basic_converted: true }, 'xlsx_advanced')).toBe(21);
    expect(conversionPrice(pricing, { ...job, xlsx_advanced_converted: true }, 'xlsx_advanced')).toBe(0);
  });

  it('rounds up to whole points as the service does, without floating-point surprises', () => {
    const decimal = {
      ...pricing,
      conversions: { ...pricing.conversions, xlsx_basic_unit: 1.1, xlsx_advanced_unit: 0.1 },
    };
    expect(conversionPrice(decimal, { ...job, conversion_units: 100 }, 'xlsx_basic')).toBe(110); // 100 × 1.1 is 110.00000000000001 in floats
    expect(conversionPrice(decimal, { ...job, conversion_units: 3 }, 'xlsx_advanced')).toBe(1); // 0.3 → 1
    expect(conversionPrice(decimal, { ...job, conversion_units: 1 }, 'xlsx_basic')).toBe(2); // 1.1 → 2
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
    const delivered: DeliveredPage[] = [];
    const done = await waitForJob(client, preview.job_id, {
      onProgress: (job) => seen.push(job),
      onPage: (page) => delivered.push(page),
      intervalMs: 50,
    });
    expect(done).toMatchObject({ status: 'done', done_pages: 24, total_pages: 24, downloadable: true });
    const donePages = seen.map((job) => job.done_pages);
    expect(donePages).toEqual([...donePages].sort((a, b) => a - b)); // never goes back
    expect(donePages.at(-1)).toBe(24);
    expect(donePages.some((n) => n > 0 && n < 24)).toBe(true); // progress was seen between start and end
    expect(seen.at(-1)).toBe(done);

    const markdown = await downloadMarkdown(client, preview.job_id);
    expect(markdown).toContain('Page 1 of the quarterly report from the SDK.');
    expect(markdown).toContain('Page 20 of the quarterly report from the SDK.');
    // Every page once, in order, as it was final: joined, the Markdown.
    expect(delivered.map((page) => page.page)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(delivered.map((page) => page.markdown).join('')).toBe(markdown);

    const chunks: Chunk[] = [];
    for await (const chunk of allChunks(client, preview.job_id, { strategy: 'page', maxTokens: 128 }))
      chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.pages?.[0])).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    const first = await listChunks(client, preview.job_id, { strategy: 'page', limit: 5 });
    expect({ total: first.total, count: first.chunks.length, tokenizer: first.tokenizer }).toEqual({
      total: 24,
      count: 5,
      tokenizer: 'cl100k_base',
    });
    expect(
      (await listChunks(client, preview.job_id, { strategy: 'page', cursor: first.next_cursor! })).chunks[0],
    ).toEqual(chunks[5]);

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
    expect(unauthorized).toMatchObject({ status: 401, code: 'unauthorized', title: 'Not authenticated' });
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

  it('sends a session token as a Bearer token for jobs, the account and keys, and refreshes it', async () => {
    const anonymous = createClient({ baseUrl });
    const session = await signup(anonymous, { email: uniqueEmail('sdk-jwt'), password: 'correct horse battery' });
    const client = createClient({ baseUrl, accessToken: session.access_token });
    const account = await client.getAccount();
    expect(account.email).toMatch(/^sdk-jwt-/);
    const key = await createKey(client, session, { name: 'from a session' });
    const keys = await unwrap(client.api.GET('/api/v1/keys'));
    expect(keys.map((k) => k.id)).toEqual([key.id]);
    // Job routes take the session token too.
    const preview = await uploadFiles(client, [{ name: 'a.md', data: Buffer.from('# a') }]);
    expect((await client.listJobs()).jobs.map((job) => job.job_id)).toEqual([preview.job_id]);
    // With both credentials, /keys reads the session token and the job routes the API key.
    const both = createClient({ baseUrl, apiKey: key.key, accessToken: session.access_token });
    expect((await both.listJobs()).jobs).toHaveLength(1);
    expect((await unwrap(both.api.GET('/api/v1/keys'))).length).toBe(1);

    // A client made with a function reads the token at each request: it follows a refreshed session.
    let current: string | null = null;
    const following = createClient({ baseUrl, accessToken: () => current });
    await expect(following.listJobs()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    const renewed = await refresh(anonymous, session);
    expect(renewed).toMatchObject({
      token_type: 'Bearer',
      expires_in: session.expires_in,
      session_id: session.session_id,
    });
    expect(renewed.refresh_token).not.toBe(session.refresh_token);
    current = renewed.access_token;
    expect((await following.getJob(preview.job_id)).job_id).toBe(preview.job_id);
    await expect(refresh(anonymous, 'not.a.token')).rejects.toMatchObject({ status: 401, code: 'unauthorized' });

    // The person's sessions: listed, and ended by logging out.
    const sessions = await listSessions(anonymous, renewed);
    expect(sessions.map((s) => [s.id, s.current])).toEqual([[session.session_id, true]]);
    await logout(anonymous, renewed);
    await expect(following.listJobs()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    await expect(refresh(anonymous, renewed)).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('follows a confirmed job live: status and progress in order, ending with done; then prices its conversions', async () => {
    const anonymous = createClient({ baseUrl });
    const session = await signup(anonymous, { email: uniqueEmail('sdk-live'), password: 'correct horse battery' });
    await t.app.get(LedgerService).post({
      userId: session.user_id!,
      type: 'grant',
      points: 100_000,
      description: 'test funds',
      idempotencyKey: `grant:${session.user_id}`,
    });
    const key = await createKey(anonymous, session, { rateLimitRpm: 10_000 });
    const client = createClient({ baseUrl, apiKey: key.key });
    const pdf = await makePdf(Array.from({ length: 600 }, (_, i) => `Page ${i + 1} streams its progress.`));
    const preview = await uploadFiles(client, [{ name: 'long.pdf', data: pdf }]);

    const events: JobEvent[] = [];
    let opened: () => void = () => undefined;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const following = streamJobEvents(client, preview.job_id, {
      onEvent: (event) => {
        events.push(event);
        opened();
      },
    });
    await open; // the stream is open before the job starts
    await confirm(client, preview.job_id);
    const last = await following;

    expect(events[0]).toMatchObject({ type: 'status', job: { job_id: preview.job_id, status: 'pending' } });
    expect(last).toEqual({
      job_id: preview.job_id,
      status: 'done',
      done_pages: 600,
      total_pages: 600,
      done_files: 1,
      total_files: 1,
      xlsx_advanced_status: null,
    });
    expect(events.at(-1)).toEqual({ type: 'status', job: last });
    const statuses = events.filter((e) => e.type === 'status').map((e) => e.job.status);
    expect(statuses).toEqual(['pending', 'queued', 'processing', 'done']);
    const progress = events.filter((e) => e.type === 'progress').map((e) => e.job.done_pages);
    expect(progress.length).toBeGreaterThan(0);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);

    // The typed price table and the job's conversion units give what a conversion really costs.
    const pricing: Pricing = await unwrap(anonymous.api.GET('/api/v1/pricing'));
    const job = await client.getJob(preview.job_id);
    expect(job.conversion_units).toBe(600);
    const price = conversionPrice(pricing, job, 'xlsx_basic');
    expect(price).toBe(600 * pricing.conversions.xlsx_basic_unit);
    expect(conversionPrice(pricing, job, 'docx')).toBe(0);
    const before = (await client.getAccount()).points_balance;
    await convert(client, preview.job_id, 'xlsx_basic');
    expect((await client.getAccount()).points_balance).toBe(before - price);
    expect(conversionPrice(pricing, await client.getJob(preview.job_id), 'xlsx_basic')).toBe(0);
  }, 90_000);

  it('refuses to follow a job that is not the caller’s, and stops when aborted', async () => {
    const client = await keyedClient();
    const missing = await streamJobEvents(client, randomUUID()).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(DocconvError);
    expect(missing).toMatchObject({ status: 404 });

    // A pending job's stream stays open until the caller gives up.
    const preview = await uploadFiles(client, [new File(['# pending'], 'pending.md', { type: 'text/markdown' })]);
    expect((await client.getJob(preview.job_id)).filename).toBe('pending.md'); // a File is uploaded as it is
    const abort = new AbortController();
    const events: JobEvent[] = [];
    const following = streamJobEvents(client, preview.job_id, {
      onEvent: (event) => {
        events.push(event);
        abort.abort();
      },
      signal: abort.signal,
    });
    await expect(following).rejects.toHaveProperty('name', 'AbortError');
    expect(events).toEqual([{ type: 'status', job: expect.objectContaining({ status: 'pending' }) as unknown }]);
  });

  it('refuses to wait for a job that has not been confirmed', async () => {
    const client = await keyedClient();
    const preview = await uploadFiles(client, [{ name: 'wait.md', data: Buffer.from('# waiting') }]);
    await expect(waitForJob(client, preview.job_id, { intervalMs: 10 })).rejects.toMatchObject({
      code: 'job_pending',
    });
  });
});
