import { stopProcess } from '@docconv/testing';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { TestKey } from './support/accounts';
import { makePdf, makeTextPng } from './support/fixtures';
import { upload, waitForJob, type UploadFile } from './support/jobs';
import { privateStack } from './support/private-stack';
import { createTestApp, type TestApp } from './support/test-app';

const ADMIN_TOKEN = 'operator-token-for-the-metrics-spec-0001';

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The samples of a Prometheus text exposition, keyed `name{labels}` as written. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    found.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return found;
}

/** The families a text exposition declares (its `# TYPE` lines). */
function families(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('# TYPE '))
    .map((line) => line.split(' ')[2]);
}

describe('operator endpoints', () => {
  const { stack, start } = privateStack('ops', { ADMIN_TOKEN });
  let t: TestApp;
  let key: TestKey;
  let worker: ChildProcess;
  let workerMetrics: string;

  beforeAll(async () => {
    ({ t, key } = stack);
    const port = await freePort();
    worker = await start({ WORKER_METRICS_PORT: String(port) });
    workerMetrics = `http://127.0.0.1:${port}/metrics`;
  });
  afterAll(async () => {
    await stopProcess(worker, 'SIGTERM');
  });

  const apiMetrics = async (): Promise<string> =>
    (await t.http.get('/metrics').set('Authorization', `Bearer ${ADMIN_TOKEN}`).expect(200)).text;
  const scrapeWorker = async (): Promise<string> => {
    const res = await fetch(workerMetrics);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  /** Uploads, confirms and waits for one job; returns the finished job. */
  async function convert(file: UploadFile): Promise<Record<string, unknown>> {
    const job = (await upload(t.http, key.key, [file])).body;
    await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    const done = await waitForJob(t.http, key.key, job.job_id as string);
    expect(done.status).toBe('done');
    return done;
  }

  it('refuses /metrics and the queue view without the admin token, saying how to send it', async () => {
    for (const path of ['/metrics', '/admin/queues', '/admin/queues/api/queues']) {
      for (const authorization of [
        undefined,
        'Bearer not-the-token',
        `Basic ${Buffer.from('x:wrong').toString('base64')}`,
      ]) {
        const req = t.http.get(path);
        const res = await (authorization ? req.set('Authorization', authorization) : req);
        expect(res.status).toBe(401);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.headers['www-authenticate']).toMatch(/^Basic realm="docconv operator"/);
        expect(JSON.parse(res.text)).toMatchObject({ code: 'unauthorized', instance: path });
        expect(JSON.parse(res.text).detail).toMatch(/ADMIN_TOKEN.*Authorization: Bearer/);
      }
    }
  });

  it('answers 404 with how to turn them on while ADMIN_TOKEN is unset', async () => {
    const off = await createTestApp({}, { ...stack.env, ADMIN_TOKEN: '' });
    try {
      for (const path of ['/metrics', '/admin/queues']) {
        const res = await off.http.get(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`);
        expect(res.status).toBe(404);
        expect(JSON.parse(res.text).detail).toBe(
          'The operator endpoints are off: set ADMIN_TOKEN on the API to turn them on.',
        );
      }
    } finally {
      await off.close();
    }
  });

  it("counts a PDF job's pages, seconds and charge on the worker's and the API's metrics", async () => {
    const apiBefore = samples(await apiMetrics());
    const workerBefore = samples(await scrapeWorker());
    const job = await convert({ name: 'two.pdf', content: await makePdf(['First page.', 'Second page.']) });
    await t.http
      .get(`/api/v1/jobs/${job.job_id as string}`)
      .set('X-API-Key', key.key)
      .expect(200);

    const workerText = await scrapeWorker();
    const worker = samples(workerText);
    const delta = (name: string) => (worker.get(name) ?? 0) - (workerBefore.get(name) ?? 0);
    expect(delta('docconv_pages_converted_total{format="pdf",ocr_engine="none"}')).toBe(2);
    expect(delta('docconv_file_conversion_seconds_count{format="pdf",ocr_engine="none"}')).toBe(1);
    expect(delta('docconv_job_duration_seconds_count{outcome="done"}')).toBe(1);
    expect(delta('docconv_job_duration_seconds_sum{outcome="done"}')).toBeGreaterThan(0);
    expect(families(workerText)).toEqual(
      expect.arrayContaining([
        'docconv_file_conversion_seconds',
        'docconv_pages_converted_total',
        'docconv_ocr_page_seconds',
        'docconv_job_duration_seconds',
        'docconv_job_failures_total',
        'docconv_process_cpu_seconds_total',
        'docconv_nodejs_eventloop_lag_seconds',
      ]),
    );

    const apiText = await apiMetrics();
    const api = samples(apiText);
    const cost = job.cost_points as number;
    expect(cost).toBeGreaterThan(0);
    expect(
      api.get('docconv_ledger_points{type="spend"}')! - (apiBefore.get('docconv_ledger_points{type="spend"}') ?? 0),
    ).toBe(-cost);
    expect(api.get('docconv_balance_points')! - apiBefore.get('docconv_balance_points')!).toBe(-cost);
    expect(
      api.get('docconv_http_request_duration_seconds_count{method="GET",route="/api/v1/jobs/:job_id",status="200"}'),
    ).toBeGreaterThanOrEqual(2);
    expect(
      api.get(
        'docconv_http_request_duration_seconds_count{method="POST",route="/api/v1/jobs/:job_id/confirm",status="200"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    for (const queue of ['parse', 'office', 'speech', 'conversions', 'maintenance', 'webhooks'])
      for (const state of ['waiting', 'prioritized', 'active', 'delayed', 'failed'])
        expect(api.get(`docconv_queue_jobs{queue="${queue}",state="${state}"}`)).toBeGreaterThanOrEqual(0);
    expect(api.get('docconv_queue_jobs{queue="parse",state="active"}')).toBe(0);
    expect(families(apiText)).toEqual(
      expect.arrayContaining([
        'docconv_queue_jobs',
        'docconv_ledger_points',
        'docconv_balance_points',
        'docconv_http_request_duration_seconds',
      ]),
    );
  });

  it("times each OCR'd page by engine and model", async () => {
    const before = samples(await scrapeWorker());
    const job = await convert({ name: 'scan.png', content: await makeTextPng('Metrics for a scanned page') });
    const after = samples(await scrapeWorker());
    const count = `docconv_ocr_page_seconds_count{engine="tesseract",model="${job.ocr_model as string}"}`;
    expect((after.get(count) ?? 0) - (before.get(count) ?? 0)).toBe(1);
    const pages = 'docconv_pages_converted_total{format="image",ocr_engine="tesseract"}';
    expect((after.get(pages) ?? 0) - (before.get(pages) ?? 0)).toBe(1);
  });

  it('shows the queues read-only to the operator, a browser giving the token as its password', async () => {
    const basic = `Basic ${Buffer.from(`operator:${ADMIN_TOKEN}`).toString('base64')}`;
    const page = await t.http.get('/admin/queues').set('Authorization', basic).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    const { body } = await t.http.get('/admin/queues/api/queues').set('Authorization', basic).expect(200);
    const queues = body.queues as { name: string; readOnlyMode: boolean }[];
    expect(queues.map((q) => q.name).sort()).toEqual([
      'conversions',
      'maintenance',
      'office',
      'parse',
      'speech',
      'webhooks',
    ]);
    expect(queues.every((q) => q.readOnlyMode)).toBe(true);
  });
});
