import { JobEntity } from '@docconv/db';
import { JobLifecycle } from '@docconv/lifecycle';
import { WebhookDeliveries } from '@docconv/webhooks';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { createKey, signup } from './support/accounts';
import { upload, waitForJob } from './support/jobs';
import { privateStack } from './support/private-stack';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A local webhook receiver. `/ok/…` answers 200; `/flaky/…` answers 500 to the first two
 * requests on its path and 200 after; `/fail/…` always answers 500.
 */
class Receiver {
  readonly received: Received[] = [];
  private server?: Server;
  private port = 0;

  async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({
          path,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        const failing = path.startsWith('/fail/') || (path.startsWith('/flaky/') && this.on(path).length <= 2);
        res.writeHead(failing ? 500 : 200).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Resolves with the requests on `path` once there are `count` of them. */
  async waitFor(path: string, count: number, timeoutMs = 20_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.on(path).length < count) {
      if (Date.now() > deadline) throw new Error(`${path} got ${this.on(path).length} of ${count} requests`);
      await sleep(50);
    }
    return this.on(path);
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webhooks', () => {
  const receiver = new Receiver();
  const { stack, start } = privateStack('hooks', {
    WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1,localhost',
    WEBHOOK_ALLOWED_HTTP_HOSTS: '127.0.0.1',
    WEBHOOK_RETRY_BASE_MS: '200',
  });
  beforeAll(async () => {
    await receiver.listen();
    await start();
  });
  afterAll(() => receiver.close());

  const withKey = <T extends { set(name: string, value: string): T }>(req: T): T => req.set('X-API-Key', stack.key.key);

  /** Uploads a Markdown file with the callback URL, confirms it and waits for it to finish. */
  async function finishedJob(callbackUrl: string): Promise<string> {
    const res = await upload(stack.t.http, stack.key.key, [{ name: 'notes.md', content: '# Notes\n\nHello.\n' }], {
      callback_url: callbackUrl,
    });
    expect(res.status).toBe(201);
    const jobId = res.body.job_id as string;
    await withKey(stack.t.http.post(`/api/v1/jobs/${jobId}/confirm`)).expect(200);
    expect(await waitForJob(stack.t.http, stack.key.key, jobId)).toMatchObject({ status: 'done' });
    return jobId;
  }

  async function deliveries(jobId: string): Promise<Record<string, unknown>[]> {
    const res = await withKey(stack.t.http.get(`/api/v1/jobs/${jobId}/webhooks`)).expect(200);
    expect(res.body.job_id).toBe(jobId);
    return res.body.deliveries as Record<string, unknown>[];
  }

  /** Polls the job's deliveries until `ready` holds for them. */
  async function deliveriesWhen(
    jobId: string,
    ready: (d: Record<string, unknown>[]) => boolean,
    timeoutMs = 20_000,
  ): Promise<Record<string, unknown>[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = await deliveries(jobId);
      if (ready(current)) return current;
      if (Date.now() > deadline) throw new Error(`deliveries not as expected: ${JSON.stringify(current)}`);
      await sleep(100);
    }
  }

  it('reports a finished job once, signed with the account’s webhook secret', async () => {
    const { secret } = (await withKey(stack.t.http.get('/api/v1/account/webhook-secret')).expect(200)).body;
    expect(secret).toMatch(/^whsec_/);

    const jobId = await finishedJob(receiver.url('/ok/done'));
    const [request] = await receiver.waitFor('/ok/done', 1);
    await sleep(1_500);
    expect(receiver.on('/ok/done')).toHaveLength(1);

    const event = JSON.parse(request.body);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['docconv-event']).toBe('job.done');
    expect(request.headers['docconv-delivery']).toBe(event.id);
    expect(event).toMatchObject({
      type: 'job.done',
      data: { job: { job_id: jobId, status: 'done', total_files: 1, done_files: 1, downloadable: true } },
    });
    expect(event.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);

    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['docconv-signature']))!;
    expect(Math.abs(Date.now() / 1000 - Number(t))).toBeLessThan(60);
    expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${request.body}`).digest('hex'));

    expect(await deliveries(jobId)).toEqual([
      expect.objectContaining({
        id: event.id,
        event_type: 'job.done',
        url: receiver.url('/ok/done'),
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
        last_error: null,
        next_attempt_at: null,
        payload: event,
      }),
    ]);
  });

  it('retries a failing receiver with backoff until it answers 2xx', async () => {
    const jobId = await finishedJob(receiver.url('/flaky/retry'));
    const [delivery] = await deliveriesWhen(jobId, (d) => d[0]?.status === 'delivered');
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200, last_error: null });

    const requests = receiver.on('/flaky/retry');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['docconv-delivery']))).toEqual(new Set([delivery.id]));
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    // 200 ms, then 600 ms, between attempts (WEBHOOK_RETRY_BASE_MS=200)
    expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(190);
    expect(requests[2].at - requests[1].at).toBeGreaterThanOrEqual(590);
  });

  it('records each failed attempt and when the next is due', async () => {
    const jobId = await finishedJob(receiver.url('/fail/always'));
    const [delivery] = await deliveriesWhen(jobId, (d) => Number(d[0]?.attempts) >= 2);
    expect(delivery).toMatchObject({
      status: 'pending',
      last_status_code: 500,
      last_error: 'The receiver answered 500.',
      delivered_at: null,
      gave_up_at: null,
      next_attempt_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
    });
  });

  it('records the delivery of an end with the end itself, once however often it is recorded', async () => {
    const pending = await upload(stack.t.http, stack.key.key, [{ name: 'twice.md', content: '# Twice\n' }], {
      callback_url: receiver.url('/ok/twice'),
    });
    const jobId = pending.body.job_id as string;
    const db = stack.t.app.get(DataSource);
    await db.query(`UPDATE jobs SET status = 'processing', started_at = now() WHERE id = $1`, [jobId]);
    const ended = await stack.t.app
      .get(JobLifecycle)
      .move('fail', { jobId }, { reason: 'Failed for the test.', failed: 0 });
    expect(ended?.job.status).toBe('error');
    // Recording the same end again, from three places at once, records nothing more.
    const recorder = stack.t.app.get(WebhookDeliveries);
    const job = await db.getRepository(JobEntity).findOneByOrFail({ id: jobId });
    const ids = await Promise.all([1, 2, 3].map(() => recorder.record(db.manager, 'status', job)));
    expect(ids).toEqual([null, null, null]);

    const [request] = await receiver.waitFor('/ok/twice', 1);
    expect(request.headers['docconv-event']).toBe('job.error');
    await sleep(1_000);
    expect(receiver.on('/ok/twice')).toHaveLength(1);
    expect(await deliveries(jobId)).toEqual([expect.objectContaining({ event_type: 'job.error', attempts: 1 })]);
  });

  it('reports a cancellation made through the API', async () => {
    const pending = await upload(stack.t.http, stack.key.key, [{ name: 'cancel.md', content: '# Cancel\n' }], {
      callback_url: receiver.url('/ok/cancelled'),
    });
    const jobId = pending.body.job_id as string;
    await withKey(stack.t.http.post(`/api/v1/jobs/${jobId}/cancel`)).expect(200);
    const [request] = await receiver.waitFor('/ok/cancelled', 1);
    expect(JSON.parse(request.body)).toMatchObject({ type: 'job.cancelled', data: { job: { status: 'cancelled' } } });
  });

  it('reports the end of each XLSX Advanced run, once per run', async () => {
    const jobId = await finishedJob(receiver.url('/ok/xlsx'));
    await receiver.waitFor('/ok/xlsx', 1);
    await withKey(stack.t.http.post(`/api/v1/jobs/${jobId}/convert`))
      .send({ format: 'xlsx_advanced' })
      .expect(200);
    const [, first] = await receiver.waitFor('/ok/xlsx', 2);
    expect(first.headers['docconv-event']).toBe('xlsx_advanced.done');
    expect(JSON.parse(first.body)).toMatchObject({
      type: 'xlsx_advanced.done',
      data: { job: { job_id: jobId, xlsx_advanced_status: 'done', xlsx_advanced_job_id: expect.any(String) } },
    });

    // A second run of the same conversion (as a retry starts) that fails: a new event, recorded once.
    const db = stack.t.app.get(DataSource);
    await db.query(
      `UPDATE job_conversions SET status = 'processing', attempt = attempt + 1 WHERE job_id = $1 AND format = 'xlsx_advanced'`,
      [jobId],
    );
    const runId = JSON.parse(first.body).data.job.xlsx_advanced_job_id as string;
    const failed = await stack.t.app
      .get(JobLifecycle)
      .move('failAdvanced', { jobId, format: 'xlsx_advanced' }, { runId, notes: 'The workbook could not be built.' });
    expect(failed?.conversion?.status).toBe('error');
    const recorder = stack.t.app.get(WebhookDeliveries);
    const job = await db.getRepository(JobEntity).findOneByOrFail({ id: jobId });
    expect(await recorder.record(db.manager, 'xlsx_advanced', job)).toBeNull();

    const [, , second] = await receiver.waitFor('/ok/xlsx', 3);
    expect(second.headers['docconv-event']).toBe('xlsx_advanced.error');
    expect(JSON.parse(second.body)).toMatchObject({
      data: {
        job: {
          xlsx_advanced_status: 'error',
          xlsx_advanced_job_id: JSON.parse(first.body).data.job.xlsx_advanced_job_id,
          xlsx_advanced_recovery_notes: 'The workbook could not be built.',
        },
      },
    });
    const types = (await deliveries(jobId)).map((d) => d.event_type);
    expect(types).toEqual(['job.done', 'xlsx_advanced.done', 'xlsx_advanced.error']);
  });

  it('sends nothing for a job without a callback URL', async () => {
    const res = await upload(stack.t.http, stack.key.key, [{ name: 'quiet.md', content: '# Quiet\n' }]);
    const jobId = res.body.job_id as string;
    await withKey(stack.t.http.post(`/api/v1/jobs/${jobId}/confirm`)).expect(200);
    await waitForJob(stack.t.http, stack.key.key, jobId);
    await sleep(500);
    expect(await deliveries(jobId)).toEqual([]);
    expect(receiver.received.filter((r) => r.body.includes(jobId))).toEqual([]);
  });

  describe('refuses callback URLs it will not send to', () => {
    const uploadWith = (callbackUrl: string) =>
      upload(stack.t.http, stack.key.key, [{ name: 'refused.md', content: '# Refused\n' }], {
        callback_url: callbackUrl,
      });

    it.each(['not a url', '/relative', 'ftp://example.com/hook', 'https://user:secret@example.com/hook'])(
      '%s: not an absolute http(s) URL without credentials',
      async (callbackUrl) => {
        const res = await uploadWith(callbackUrl);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'callback_url' }] });
      },
    );

    it('plain http to a host not allowed for it', async () => {
      const res = await uploadWith('http://example.com/hook');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors).toEqual([{ field: 'callback_url', message: expect.stringMatching(/https/) }]);
    });

    it.each([
      ['https://10.1.2.3/hook', /10\.1\.2\.3, a private address/],
      ['https://169.254.169.254/latest/meta-data', /169\.254\.169\.254, a link-local address/],
      ['https://[::ffff:10.0.0.1]/hook', /::ffff:a00:1, a private address/],
      ['https://[fd00::1]/hook', /unique-local/],
    ])('%s: an address that is not public', async (callbackUrl, reason) => {
      const res = await uploadWith(callbackUrl);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.detail).toMatch(reason);
      expect(res.body.errors).toEqual([{ field: 'callback_url', message: expect.stringMatching(reason) }]);
    });
  });

  it('rotating the webhook secret replaces it, for API keys and session tokens alike', async () => {
    const first = (await withKey(stack.t.http.get('/api/v1/account/webhook-secret')).expect(200)).body.secret;
    expect((await withKey(stack.t.http.get('/api/v1/account/webhook-secret')).expect(200)).body.secret).toBe(first);
    const rotated = (await withKey(stack.t.http.post('/api/v1/account/webhook-secret/rotate')).expect(200)).body.secret;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(first);
    expect((await withKey(stack.t.http.get('/api/v1/account/webhook-secret')).expect(200)).body.secret).toBe(rotated);

    const other = await signup(stack.t.http, 'hooks-other');
    const bearer = `Bearer ${other.jwt}`;
    const own = (await stack.t.http.get('/api/v1/account/webhook-secret').set('Authorization', bearer).expect(200)).body
      .secret;
    expect(own).not.toBe(rotated);
    const next = (
      await stack.t.http.post('/api/v1/account/webhook-secret/rotate').set('Authorization', bearer).expect(200)
    ).body.secret;
    expect(next).not.toBe(own);
    await stack.t.http.get('/api/v1/account/webhook-secret').expect(401);
  });

  it('shows a job’s deliveries to its owner only', async () => {
    const res = await upload(stack.t.http, stack.key.key, [{ name: 'mine.md', content: '# Mine\n' }], {
      callback_url: receiver.url('/ok/mine'),
    });
    const other = await signup(stack.t.http, 'hooks-stranger');
    const strangerKey = await createKey(stack.t.http, other);
    const seen = await stack.t.http.get(`/api/v1/jobs/${res.body.job_id}/webhooks`).set('X-API-Key', strangerKey.key);
    expect(seen.status).toBe(404);
    expect(seen.body.code).toBe('job_not_found');
    const writeOnly = await createKey(stack.t.http, other, { scopes: ['jobs:write'] });
    await stack.t.http.get(`/api/v1/jobs/${res.body.job_id}/webhooks`).set('X-API-Key', writeOnly.key).expect(403);
  });
});
