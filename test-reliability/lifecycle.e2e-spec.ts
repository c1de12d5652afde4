import { getQueueToken } from '@nestjs/bullmq';
import { Sweeper } from '@docconv/lifecycle';
import { queueJobId } from '@docconv/contracts';
import { stopProcess } from '@docconv/testing';
import type { Queue } from 'bullmq';
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { makeMixedPdf, makePdf, makeTiffWithUnreadableFrame } from '../test/support/fixtures';
import { upload, waitForJob } from '../test/support/jobs';
import { privateStack } from '../test/support/private-stack';
import { ms, printFigures } from './support/figures';
import { startPrivateRedis, type StoppableServer } from './support/private-services';

/** Rows of the ledger table whose XLSX Advanced run takes seconds, so a worker can be caught in the middle of it. */
const LONG_TABLE_ROWS = 40_000;

/** A Markdown ledger of `rows` rows: free to convert to Markdown, slow to turn into a typed workbook. */
function ledgerMarkdown(rows: number): string {
  const lines = ['# Ledger', '', '| Date | Account | Amount | Note |', '|---|---|---|---|'];
  for (let i = 0; i < rows; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    lines.push(`| 2026-01-${day} | A-${i} | ${(i * 13.7).toFixed(2)} | row ${i} of the ledger |`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * What the database promises survives Redis and the workers: the queue message of a committed
 * XLSX Advanced run and of a webhook delivery reach the queue even when Redis was stopped and
 * came back empty between the commit and the send; a run whose worker is killed is finished by
 * another; a run the queue gives up on ends as a refundable error. Its own Redis, which the
 * test stops and starts.
 */
describe('the job lifecycle when Redis and workers fail', () => {
  let redis: StoppableServer;
  let receiver: Server;
  const received: { path: string; body: string }[] = [];
  beforeAll(async () => {
    redis = await startPrivateRedis();
    stack.env.REDIS_URL = redis.url;
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  const { stack, start } = privateStack('lifecycle', {
    WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
    WEBHOOK_ALLOWED_HTTP_HOSTS: '127.0.0.1',
    XLSX_ADVANCED_WAIT_SECONDS: '1',
    WORKER_LOCK_MS: '10000',
    WORKER_STALLED_INTERVAL_MS: '2000',
    LOG_LEVEL: 'fatal', // requests while Redis is away are logged as errors; the figures say what happened
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
    await redis?.destroy();
  });

  const auth = () => ({ 'X-API-Key': stack.key.key });
  const db = () => stack.t.app.get(DataSource);
  const receiverUrl = (path: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;

  async function finishedMarkdownJob(markdown: string, callbackUrl?: string): Promise<string> {
    const res = await upload(stack.t.http, stack.key.key, [{ name: 'ledger.md', content: markdown }], {
      ...(callbackUrl ? { callback_url: callbackUrl } : {}),
    });
    expect(res.status).toBe(201);
    const jobId = res.body.job_id as string;
    await stack.t.http.post(`/api/v1/jobs/${jobId}/confirm`).set(auth()).expect(200);
    expect(await waitForJob(stack.t.http, stack.key.key, jobId)).toMatchObject({ status: 'done' });
    return jobId;
  }

  /** Asks for the XLSX Advanced file; the call waits a second, so a longer run answers 503 "still running". */
  const convert = (jobId: string) =>
    stack.t.http.post(`/api/v1/jobs/${jobId}/convert`).set(auth()).send({ format: 'xlsx_advanced' });

  async function waitForRun(jobId: string, until: string[], timeoutMs = 90_000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = (await stack.t.http.get(`/api/v1/jobs/${jobId}`).set(auth())).body as Record<string, unknown>;
      if (until.includes(job.xlsx_advanced_status as string)) return job;
      if (Date.now() > deadline) throw new Error(`XLSX Advanced still ${String(job.xlsx_advanced_status)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async function advancedLedger(jobId: string): Promise<{ spends: number; refunds: number; sum: number }> {
    const [row] = await db().query<{ spends: number; refunds: number; sum: number }[]>(
      `SELECT count(*) FILTER (WHERE type = 'spend')::int AS spends, count(*) FILTER (WHERE type = 'refund')::int AS refunds,
              coalesce(sum(amount), 0)::int AS sum
         FROM credit_transactions WHERE job_id = $1 AND idempotency_key LIKE 'xlsx-advanced:%'`,
      [jobId],
    );
    return row;
  }

  /** Waits until a worker holds the run's queue message (BullMQ `active`). */
  async function waitUntilTaken(jobId: string): Promise<void> {
    const queue = stack.t.app.get<Queue>(getQueueToken('conversions'), { strict: false });
    const [run] = await db().query<{ run_id: string; attempt: number }[]>(
      `SELECT run_id, attempt FROM job_conversions WHERE job_id = $1 AND format = 'xlsx_advanced'`,
      [jobId],
    );
    const id = queueJobId('convert.xlsx-advanced', { jobId, conversionId: run.run_id, attempt: run.attempt })!;
    const deadline = Date.now() + 30_000;
    while ((await (await queue.getJob(id))?.getState()) !== 'active') {
      if (Date.now() > deadline) throw new Error('no worker took the XLSX Advanced run');
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('Redis stopped and emptied between the commit and the send of an XLSX Advanced run: the run completes, charged once', async () => {
    let worker: ChildProcess | undefined = await start();
    const jobId = await finishedMarkdownJob('# Totals\n\n| Item | Amount |\n|---|---|\n| Paper | 12.50 |\n');
    await redis.stop();
    const whileDown = await convert(jobId);
    const [{ unsent }] = await db().query<{ unsent: number }[]>('SELECT count(*)::int AS unsent FROM outbox');
    await redis.start();
    const back = Date.now();
    const done = await waitForRun(jobId, ['done', 'error']);
    const completedInMs = Date.now() - back;
    const file = await convert(jobId);
    const ledger = await advancedLedger(jobId);
    printFigures('Lifecycle: Redis stopped between the commit and the send of an XLSX Advanced run', [
      ['convert while Redis was down', `${whileDown.status} (${String(whileDown.body.xlsx_advanced_status)})`],
      ['outbox messages waiting while down', unsent],
      ['run done after Redis came back (empty)', ms(completedInMs)],
      ['convert afterwards', file.status],
      ['ledger rows of the run: spends / refunds', `${ledger.spends} / ${ledger.refunds}`],
    ]);
    expect(whileDown.status).toBe(503);
    expect(whileDown.body.xlsx_advanced_status).toBe('processing');
    expect(unsent).toBeGreaterThanOrEqual(1);
    expect(done.xlsx_advanced_status).toBe('done');
    expect(file.status).toBe(200);
    expect(ledger).toMatchObject({ spends: 1, refunds: 0 });
    await stopProcess(worker, 'SIGKILL');
    worker = undefined;
  });

  it('Redis stopped and emptied between the commit and the send of a webhook: the delivery is made once', async () => {
    const worker = await start();
    const path = '/cancelled';
    const res = await upload(stack.t.http, stack.key.key, [{ name: 'note.md', content: '# Note\n' }], {
      callback_url: receiverUrl(path),
    });
    const jobId = res.body.job_id as string;
    await redis.stop();
    const cancel = await stack.t.http.post(`/api/v1/jobs/${jobId}/cancel`).set(auth());
    await redis.start();
    const back = Date.now();
    const deadline = back + 90_000;
    while (!received.some((r) => r.path === path)) {
      if (Date.now() > deadline) throw new Error('the webhook never arrived');
      await new Promise((r) => setTimeout(r, 200));
    }
    const deliveredInMs = Date.now() - back;
    await new Promise((r) => setTimeout(r, 2_000)); // room for a duplicate to show
    const hooks = received.filter((r) => r.path === path);
    const deliveries = (await stack.t.http.get(`/api/v1/jobs/${jobId}/webhooks`).set(auth())).body.deliveries as {
      attempts: number;
    }[];
    printFigures('Lifecycle: Redis stopped between the commit and the send of a webhook', [
      ['cancel while Redis was down', cancel.status],
      ['webhook received after Redis came back (empty)', ms(deliveredInMs)],
      ['requests received / deliveries recorded', `${hooks.length} / ${deliveries.length}`],
    ]);
    expect(cancel.status).toBe(200);
    expect(hooks).toHaveLength(1);
    expect(JSON.parse(hooks[0].body)).toMatchObject({ type: 'job.cancelled' });
    expect(deliveries).toEqual([expect.objectContaining({ attempts: 1 })]);
    await stopProcess(worker, 'SIGKILL');
  });

  it('cancel while a worker processes: it stops at the next page, refund = unprocessed pages × price', async () => {
    const worker = await start();
    const total = 6_000; // long enough to be caught midway: a page of one line reads in about a millisecond
    const pdf = await makePdf(Array.from({ length: total }, (_, i) => `Page ${i + 1} of a report cancelled midway.`));
    const preview = (await upload(stack.t.http, stack.key.key, [{ name: 'long.pdf', content: pdf }])).body;
    const pagePrice = (preview.cost.points as number) / total;
    await stack.t.http.post(`/api/v1/jobs/${preview.job_id}/confirm`).set(auth()).expect(200);
    let working: Record<string, unknown>;
    do {
      working = (await stack.t.http.get(`/api/v1/jobs/${preview.job_id}`).set(auth())).body;
      await new Promise((r) => setTimeout(r, 50));
    } while (working.status !== 'processing' || (working.done_pages as number) < 100);
    const asked = Date.now();
    const cancel = await stack.t.http.post(`/api/v1/jobs/${preview.job_id}/cancel`).set(auth());
    const answeredInMs = Date.now() - asked;
    const cancelled = await waitForJob(stack.t.http, stack.key.key, preview.job_id);
    const pages = (await stack.t.http.get(`/api/v1/jobs/${preview.job_id}/pages`).set(auth())).body.pages as unknown[];
    const [ledger] = await db().query<{ sum: number; refunds: number }[]>(
      `SELECT coalesce(sum(amount), 0)::int AS sum, count(*) FILTER (WHERE type = 'refund')::int AS refunds
         FROM credit_transactions WHERE job_id = $1`,
      [preview.job_id],
    );
    printFigures('Lifecycle: cancel during processing', [
      ['pages of the job', total],
      ['pages done when cancel was asked', working.done_pages as number],
      ['cancel answered', `${cancel.status} in ${ms(answeredInMs)}`],
      ['pages delivered', pages.length],
      [
        'refunded points (unprocessed × price)',
        `${String(cancelled.refunded_points)} (${total - pages.length} × ${pagePrice})`,
      ],
      ['ledger sum of the job', ledger.sum],
    ]);
    expect(cancel.status).toBe(200);
    expect(cancelled.status).toBe('cancelled');
    expect(pages.length).toBeGreaterThanOrEqual(working.done_pages as number);
    expect(pages.length).toBeLessThan(total);
    expect(cancelled.refunded_points).toBe((total - pages.length) * pagePrice);
    expect(ledger).toEqual({ sum: -pages.length * pagePrice, refunds: 1 });
    await stopProcess(worker, 'SIGKILL');
  });

  it('a frame that cannot be read: the job is done, the frame refunded at once', async () => {
    const worker = await start();
    const tiff = await makeTiffWithUnreadableFrame(['A readable first frame', 'Lost', 'A readable third frame'], 1);
    const preview = (await upload(stack.t.http, stack.key.key, [{ name: 'scan.tiff', content: tiff }])).body;
    const framePrice = (preview.cost.points as number) / 3;
    await stack.t.http.post(`/api/v1/jobs/${preview.job_id}/confirm`).set(auth()).expect(200);
    const done = await waitForJob(stack.t.http, stack.key.key, preview.job_id);
    const pages = (await stack.t.http.get(`/api/v1/jobs/${preview.job_id}/pages`).set(auth())).body.pages as {
      source: string;
    }[];
    const [ledger] = await db().query<{ sum: number }[]>(
      'SELECT coalesce(sum(amount), 0)::int AS sum FROM credit_transactions WHERE job_id = $1',
      [preview.job_id],
    );
    const delivered = pages.filter((p) => p.source !== 'failed').length;
    printFigures('Lifecycle: a frame that cannot be read', [
      ['frames / delivered / failed', `3 / ${delivered} / ${pages.length - delivered}`],
      ['charged, refunded', `${String(done.cost_points)}, ${String(done.refunded_points)}`],
      ['ledger sum of the job (delivered × price)', `${ledger.sum} (${delivered} × ${framePrice})`],
    ]);
    expect(done).toMatchObject({ status: 'done', refunded_points: framePrice });
    expect(ledger.sum).toBe(-delivered * framePrice);
    expect(delivered).toBe(2);
    await stopProcess(worker, 'SIGKILL');
  });

  it('a worker SIGKILLed in the middle of an XLSX Advanced run: another worker finishes it, charged once', async () => {
    const doomed = await start();
    const jobId = await finishedMarkdownJob(ledgerMarkdown(LONG_TABLE_ROWS));
    await convert(jobId);
    await waitUntilTaken(jobId);
    await stopProcess(doomed, 'SIGKILL');
    const [{ status }] = await db().query<{ status: string }[]>(
      `SELECT status FROM job_conversions WHERE job_id = $1 AND format = 'xlsx_advanced'`,
      [jobId],
    );
    expect(status).toBe('processing'); // killed mid-run, or the test means nothing
    const killed = Date.now();
    const successor = await start();
    const done = await waitForRun(jobId, ['done', 'error']);
    const finishedInMs = Date.now() - killed;
    const file = await convert(jobId);
    const ledger = await advancedLedger(jobId);
    printFigures('Lifecycle: worker SIGKILLed mid-conversion', [
      ['rows of the table converted', LONG_TABLE_ROWS],
      ['run done after the kill', ms(finishedInMs)],
      ['ledger rows of the run: spends / refunds', `${ledger.spends} / ${ledger.refunds}`],
      ['convert after the run', file.status],
    ]);
    expect(done.xlsx_advanced_status).toBe('done');
    expect(file.status).toBe(200);
    expect(ledger).toMatchObject({ spends: 1, refunds: 0 });
    await stopProcess(successor, 'SIGKILL');
  });

  it('the queue gives up on a stalled XLSX Advanced run: the run ends a refundable error, and the refund returns every point', async () => {
    const noSecondChances = { WORKER_MAX_STALLED_COUNT: '0' };
    const doomed = await start(noSecondChances);
    const jobId = await finishedMarkdownJob(ledgerMarkdown(LONG_TABLE_ROWS));
    await convert(jobId);
    await waitUntilTaken(jobId);
    await stopProcess(doomed, 'SIGKILL');
    const killed = Date.now();
    const successor = await start(noSecondChances); // its stalled check finds the dead worker's run and fails it
    const sweeper = stack.t.app.get(Sweeper);
    const deadline = Date.now() + 60_000;
    let sweeps = 0;
    for (;;) {
      sweeps++;
      if ((await sweeper.sweep()).advancedGivenUp > 0) break;
      if (Date.now() > deadline) throw new Error('the sweep never found the run the queue gave up on');
      await new Promise((r) => setTimeout(r, 500));
    }
    const failed = await waitForRun(jobId, ['error', 'done'], 5_000);
    const endedInMs = Date.now() - killed;
    const answer = await convert(jobId);
    const refund = await stack.t.http
      .post(`/api/v1/jobs/${jobId}/xlsx-advanced-action`)
      .set(auth())
      .send({ action: 'refund' });
    const ledger = await advancedLedger(jobId);
    printFigures('Lifecycle: the queue gave up on a stalled conversion', [
      ['run ended after the kill', ms(endedInMs)],
      ['sweeps until it was found', sweeps],
      ['convert afterwards', `${answer.status} ${String(answer.body.code)}`],
      ['refund', `${refund.status}, ${String(refund.body.points)} points`],
      ['ledger of the run: spends / refunds / sum', `${ledger.spends} / ${ledger.refunds} / ${ledger.sum}`],
    ]);
    expect(failed).toMatchObject({ xlsx_advanced_status: 'error', xlsx_advanced_refundable: true });
    expect(failed.xlsx_advanced_recovery_notes).toMatch(/interrupted too many times/);
    expect(answer.status).toBe(400);
    expect(refund.status).toBe(200);
    expect(ledger).toEqual({ spends: 1, refunds: 1, sum: 0 });
    await stopProcess(successor, 'SIGKILL');
  });

  it('a worker killed mid-range while Redis restarts empty: the sweep sends the job again, it is done with every page once, charged once', async () => {
    const total = 10;
    const spreading = { WORKER_CONCURRENCY: '2', FANOUT_MIN_PAGES: String(total) }; // two slots: two ranges of five
    const doomed = await start(spreading);
    const pdf = await makeMixedPdf(
      Array.from({ length: total }, (_, i) => ({ scan: `Scanned page ${i + 1} of the survey` })),
    );
    const preview = (await upload(stack.t.http, stack.key.key, [{ name: 'survey.pdf', content: pdf }])).body;
    const jobId = preview.job_id as string;
    await stack.t.http.post(`/api/v1/jobs/${jobId}/confirm`).set(auth()).expect(200);
    let caught: Record<string, unknown>;
    do {
      caught = (await stack.t.http.get(`/api/v1/jobs/${jobId}`).set(auth())).body;
      if (['done', 'error', 'cancelled'].includes(caught.status as string))
        throw new Error(`job ended ${String(caught.status)} first`);
      await new Promise((r) => setTimeout(r, 50));
    } while (caught.status !== 'processing' || (caught.done_pages as number) < 1);
    await stopProcess(doomed, 'SIGKILL');
    await redis.stop();
    await redis.start(); // empty: no parse, range or assemble message of the job is left
    const back = Date.now();
    const successor = await start(spreading);
    const sweeper = stack.t.app.get(Sweeper);
    const deadline = back + 150_000;
    let resent = 0;
    let job: Record<string, unknown>;
    for (;;) {
      resent += (await sweeper.sweep()).parseResent; // the worker's own sweep, every 15 s, may send it first
      job = (await stack.t.http.get(`/api/v1/jobs/${jobId}`).set(auth())).body;
      if (['done', 'error', 'cancelled'].includes(job.status as string)) break;
      if (Date.now() > deadline)
        throw new Error(`job still ${String(job.status)} with ${String(job.done_pages)} pages done`);
      await new Promise((r) => setTimeout(r, 1_000));
    }
    const markdown = (await stack.t.http.get(`/api/v1/jobs/${jobId}/download`).set(auth())).text;
    const found = [...markdown.matchAll(/Scanned page (\d+) of the survey/g)].map((m) => Number(m[1]));
    const [ledger] = await db().query<{ spends: number; refunds: number; sum: number }[]>(
      `SELECT count(*) FILTER (WHERE type = 'spend')::int AS spends, count(*) FILTER (WHERE type = 'refund')::int AS refunds,
              coalesce(sum(amount), 0)::int AS sum
         FROM credit_transactions WHERE job_id = $1`,
      [jobId],
    );
    printFigures('Lifecycle: a spread job whose worker died while Redis restarted empty', [
      ['pages done when the worker was killed', caught.done_pages as number],
      ["sent again by the test's sweeps", resent],
      ['job ended after Redis came back (empty)', `${String(job.status)} in ${ms(Date.now() - back)}`],
      ['pages done / pages found in the Markdown', `${String(job.done_pages)} / ${found.length}`],
      ['ledger: spends / refunds / sum', `${ledger.spends} / ${ledger.refunds} / ${ledger.sum}`],
    ]);
    expect(job).toMatchObject({ status: 'done', done_pages: total, refunded_points: 0 });
    expect(found).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(ledger).toEqual({ spends: 1, refunds: 0, sum: -preview.cost.points });
    await stopProcess(successor, 'SIGKILL');
  }, 240_000);

  it('over every job of the run, the ledger holds exactly what was delivered: pages net of refunds, conversions net of theirs', async () => {
    const rows = await db().query<
      {
        job_id: string;
        status: string;
        net: number;
        pages_ledger: number;
        conversions: number;
        conversions_ledger: number;
      }[]
    >(
      `SELECT j.id AS job_id, j.status, (j.cost_points - j.refunded_points)::int AS net,
              coalesce((SELECT -sum(t.amount) FROM credit_transactions t
                         WHERE t.job_id = j.id AND t.idempotency_key LIKE 'job:%' AND t.idempotency_key NOT LIKE '%:convert:%'), 0)::int AS pages_ledger,
              coalesce((SELECT sum(c.charge_points) FROM job_conversions c WHERE c.job_id = j.id AND c.status <> 'refunded'), 0)::int AS conversions,
              coalesce((SELECT -sum(t.amount) FROM credit_transactions t
                         WHERE t.job_id = j.id AND (t.idempotency_key LIKE 'xlsx-advanced:%' OR t.idempotency_key LIKE '%:convert:%')), 0)::int AS conversions_ledger
         FROM jobs j`,
    );
    const off = rows.filter((r) => r.net !== r.pages_ledger || r.conversions !== r.conversions_ledger);
    printFigures('Lifecycle: the ledger against what was delivered, every job of the run', [
      ['jobs', rows.length],
      [
        'by status',
        Object.entries(
          rows.reduce<Record<string, number>>((n, r) => ({ ...n, [r.status]: (n[r.status] ?? 0) + 1 }), {}),
        )
          .map(([k, v]) => `${k}×${v}`)
          .join(' '),
      ],
      ['points the jobs kept (charged − refunded)', rows.reduce((sum, r) => sum + r.net, 0)],
      ['jobs whose ledger differs', off.length],
    ]);
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(off).toEqual([]);
  });
});
