import { createDataSource, migrate } from '@docconv/db';
import { spawnApi, spawnWorker, stopProcess, waitForWorkerHeartbeat, type ApiProcess } from '@docconv/testing';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Queues } from '@docconv/redis';
import { createKey, signup, type TestKey } from '../test/support/accounts';
import { makeDocx, makePdf, makeTextPng } from '../test/support/fixtures';
import { testBucket } from '../test/support/s3';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { grant } from '../test-reliability/support/api';
import { ms, percentile, printFigures } from '../test-reliability/support/figures';
import {
  startPrivatePostgres,
  startPrivateRedis,
  type StoppableServer,
} from '../test-reliability/support/private-services';

/** How long the simulated users keep sending work (SOAK_SECONDS, default 90). */
const SOAK_MS = Number(process.env.SOAK_SECONDS ?? 90) * 1000;
/** Pages of the soak's long text PDFs, spread over page ranges. */
const LONG_PDF_PAGES = 1_000;
const USERS = 6;
/** How long the jobs sent may take to end once the users stop. */
const DRAIN_MS = 180_000;
const TERMINAL = ['done', 'error', 'cancelled'];

const sleep = (msToWait: number) => new Promise((r) => setTimeout(r, msToWait));

/** A user's request: through one of the API processes, retried while the service is being disrupted. */
interface Answer {
  status: number;
  body: Record<string, unknown>;
  ms: number;
}

describe('soak: 2 API processes and 3 workers on one PostgreSQL, Redis and S3, through crashes and restarts', () => {
  let postgres: StoppableServer;
  let redis: StoppableServer;
  let admin: TestApp;
  let env: NodeJS.ProcessEnv;
  const apis: ApiProcess[] = [];
  const workers: ChildProcess[] = [];
  const keys: TestKey[] = [];

  beforeAll(async () => {
    [redis, postgres] = await Promise.all([startPrivateRedis(), startPrivatePostgres()]);
    const bucket = testBucket('soak');
    await bucket.create();
    env = {
      ...process.env,
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: `docconv-soak-${randomBytes(3).toString('hex')}`,
      ...bucket.env,
      WORKER_CONCURRENCY: '2',
      // A killed worker's jobs are taken over within seconds.
      WORKER_LOCK_MS: '5000',
      WORKER_STALLED_INTERVAL_MS: '3000',
      LOG_LEVEL: 'fatal',
    };
    const dataSource = await createDataSource(postgres.url).initialize();
    await migrate(dataSource);
    await dataSource.destroy();
    admin = await createTestApp({}, env);
    for (let n = 1; n <= 2; n++) apis.push(await spawnApi(env, `soak-api-${n}`));
    const since = Date.now();
    for (let n = 1; n <= 3; n++) workers.push(spawnWorker(env, `soak-worker-${n}`));
    await waitForWorkerHeartbeat(env, since);
    for (let n = 0; n < USERS; n++) {
      const user = await signup(admin.http, `soak${n}`);
      keys.push(await createKey(admin.http, user, { rate_limit_rpm: 100_000 }));
      await grant(admin, user.userId, 10_000_000);
    }
  }, 180_000);

  afterAll(async () => {
    for (const worker of workers) await stopProcess(worker, 'SIGKILL');
    for (const api of apis) await stopProcess(api.child, 'SIGKILL');
    await admin?.close();
    await Promise.all([redis?.destroy(), postgres?.destroy()]);
  });

  /** Sends a request to API process `n % 2`, again (up to a minute) while it gets no answer or a 5xx. */
  async function call(
    n: number,
    method: string,
    path: string,
    apiKey: string,
    body?: FormData | object,
  ): Promise<Answer> {
    const deadline = Date.now() + 60_000;
    for (let attempt = 0; ; attempt++) {
      const api = apis[(n + attempt) % apis.length];
      const started = performance.now();
      try {
        const res = await fetch(`${api.url}${path}`, {
          method,
          headers: {
            'X-API-Key': apiKey,
            ...(body && !(body instanceof FormData) ? { 'Content-Type': 'application/json' } : {}),
          },
          body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        const answer = {
          status: res.status,
          body: text.startsWith('{') ? JSON.parse(text) : {},
          ms: performance.now() - started,
        };
        if (res.status < 500 || Date.now() > deadline) return answer;
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
      await sleep(250 * Math.min(attempt + 1, 8));
    }
  }

  /**
   * A document of one of the formats users send most, small enough for the soak's pace; one PDF
   * in ten is long enough to be spread over page ranges.
   */
  async function someDocument(n: number): Promise<{ name: string; content: Buffer; type: string }> {
    switch (n % 4) {
      case 0:
        return {
          name: `report-${n}.pdf`,
          content: await makePdf(
            Array.from(
              { length: n % 40 === 0 ? LONG_PDF_PAGES : 1 + (n % 5) },
              (_, i) => `Soak report ${n}, page ${i + 1}.`,
            ),
          ),
          type: 'application/pdf',
        };
      case 1:
        return {
          name: `note-${n}.md`,
          content: Buffer.from(`# Note ${n}\n\nA line of the soak.\n`),
          type: 'text/markdown',
        };
      case 2:
        return {
          name: `memo-${n}.docx`,
          content: await makeDocx([`Memo ${n}`, 'A paragraph of the soak.']),
          type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        };
      default:
        return { name: `scan-${n}.png`, content: await makeTextPng(`Scan ${n} of the soak`), type: 'image/png' };
    }
  }

  it('loses no job, charges none twice, and its ledger adds up to the balances', async () => {
    const started = Date.now();
    const stopAt = started + SOAK_MS;
    const confirmed = new Set<string>();
    const readLatencies: number[] = [];
    const counts = { uploads: 0, refusedUploads: 0, cancels: 0, conversions: 0, downloads: 0 };
    const disruptions: string[] = [];

    const user = async (u: number): Promise<void> => {
      const key = keys[u].key;
      for (let n = u; Date.now() < stopAt; n += USERS) {
        const document = await someDocument(n);
        const form = new FormData();
        form.append('files', new Blob([document.content], { type: document.type }), document.name);
        const uploaded = await call(n, 'POST', '/api/v1/jobs/upload', key, form);
        if (uploaded.status !== 201) {
          counts.refusedUploads++;
          continue;
        }
        counts.uploads++;
        const jobId = uploaded.body.job_id as string;
        const confirm = await call(n + 1, 'POST', `/api/v1/jobs/${jobId}/confirm`, key);
        if (confirm.status !== 200) {
          // A retried confirm whose first answer was lost finds the job confirmed already.
          const job = await call(n, 'GET', `/api/v1/jobs/${jobId}`, key);
          if (job.body.status === 'pending')
            throw new Error(`confirm answered ${confirm.status}: ${JSON.stringify(confirm.body)}`);
        }
        confirmed.add(jobId);
        if (n % 7 === 3) {
          await call(n, 'POST', `/api/v1/jobs/${jobId}/cancel`, key);
          counts.cancels++;
        }
        let job: Record<string, unknown> = {};
        for (let polls = 0; polls < 40 && !TERMINAL.includes(job.status as string); polls++) {
          const read = await call(n + polls, 'GET', `/api/v1/jobs/${jobId}`, key);
          if (read.status === 200) readLatencies.push(read.ms);
          job = read.body;
          await sleep(150);
        }
        if (job.status === 'done') {
          if ((await call(n, 'GET', `/api/v1/jobs/${jobId}/download`, key)).status === 200) counts.downloads++;
          if (n % 5 === 0) {
            const converted = await call(n, 'POST', `/api/v1/jobs/${jobId}/convert`, key, { format: 'docx' });
            if (converted.status === 200) counts.conversions++;
          }
        }
      }
    };

    const chaos = async (): Promise<void> => {
      await sleep(SOAK_MS * 0.2);
      await stopProcess(workers[0], 'SIGKILL');
      workers[0] = spawnWorker(env, 'soak-worker-1');
      disruptions.push(`worker 1 SIGKILLed at ${ms(Date.now() - started)} and started again`);
      await sleep(SOAK_MS * 0.25);
      await redis.stop();
      await sleep(2_000);
      await redis.start();
      disruptions.push(`Redis stopped at ${ms(Date.now() - started - 2_000)} and started again empty 2 s later`);
      await sleep(SOAK_MS * 0.25);
      await stopProcess(apis[1].child, 'SIGKILL');
      apis[1] = await spawnApi(env, 'soak-api-2');
      disruptions.push(`API process 2 SIGKILLed at ${ms(Date.now() - started)} and started again`);
    };

    await Promise.all([chaos(), ...Array.from({ length: USERS }, (_, u) => user(u))]);
    const sent = Date.now() - started;

    // Every confirmed job must end, whatever happened to the processes that held it.
    const db = admin.app.get(DataSource);
    const ids = [...confirmed];
    const drainDeadline = Date.now() + DRAIN_MS;
    let open = ids;
    while (open.length > 0 && Date.now() < drainDeadline) {
      await sleep(1_000);
      const rows = await db.query<{ id: string }[]>(
        `SELECT id FROM jobs WHERE id = ANY($1) AND status NOT IN ('done', 'error', 'cancelled')`,
        [ids],
      );
      open = rows.map((row) => row.id);
    }
    const elapsed = Date.now() - started;
    // A job that did not end says where it stopped, so a failure explains itself.
    const stuck = await db.query<Record<string, unknown>[]>(
      `SELECT id, status, parse_queue, retry_count, total_pages, done_pages, total_files, done_files, confirmed_at, started_at, cancel_requested_at
         FROM jobs WHERE id = ANY($1)`,
      [open],
    );
    if (stuck.length > 0) {
      // And where its queue messages are: every message of it that has not completed, by queue and state.
      const messages: string[] = [];
      for (const queue of admin.app.get(Queues).all()) {
        const jobs = await queue.getJobs(['active', 'waiting', 'delayed', 'failed', 'waiting-children', 'prioritized']);
        for (const job of jobs) {
          if (!open.includes((job?.data as { jobId?: string } | undefined)?.jobId ?? '')) continue;
          messages.push(
            `${queue.name} ${job.id} ${await job.getState()} attempts ${job.attemptsMade} ${JSON.stringify(job.data)}`,
          );
        }
      }
      process.stdout.write(
        `\nJobs not ended after the drain:\n${JSON.stringify(stuck, null, 1)}\n${messages.join('\n')}\n`,
      );
    }
    const byStatus = await db.query<{ status: string; jobs: string; pages: string }[]>(
      `SELECT status, count(*)::text AS jobs, COALESCE(SUM(done_pages), 0)::text AS pages FROM jobs WHERE id = ANY($1) GROUP BY status`,
      [ids],
    );
    const doubleCharged = await db.query<{ job_id: string }[]>(
      `SELECT job_id FROM credit_transactions WHERE job_id = ANY($1) AND type = 'spend' GROUP BY job_id HAVING count(*) > 1`,
      [ids],
    );
    const overRefunded = await db.query<{ job_id: string }[]>(
      `SELECT job_id FROM credit_transactions WHERE job_id = ANY($1)
        GROUP BY job_id HAVING SUM(amount) FILTER (WHERE type = 'refund') > -SUM(amount) FILTER (WHERE type = 'spend')`,
      [ids],
    );
    const [ledger] = await db.query<{ ledger: string; balances: string }[]>(
      `SELECT (SELECT COALESCE(SUM(amount), 0) FROM credit_transactions)::text AS ledger,
              (SELECT COALESCE(SUM(points_balance), 0) FROM users)::text AS balances`,
    );
    const [spread] = await db.query<{ jobs: number }[]>(
      'SELECT count(*)::int AS jobs FROM jobs WHERE id = ANY($1) AND range_done_pages IS NOT NULL',
      [ids],
    );
    const status = Object.fromEntries(byStatus.map((row) => [row.status, Number(row.jobs)]));
    const donePages = Number(byStatus.find((row) => row.status === 'done')?.pages ?? 0);
    printFigures(`Soak: ${USERS} users for ${ms(sent)}, 2 API processes, 3 workers (2 slots each)`, [
      ...disruptions.map((line, i): [string, string] => [`disruption ${i + 1}`, line]),
      ['uploads accepted / refused', `${counts.uploads} / ${counts.refusedUploads}`],
      ['jobs confirmed', ids.length],
      ['jobs done / error / cancelled', `${status.done ?? 0} / ${status.error ?? 0} / ${status.cancelled ?? 0}`],
      [`jobs spread over page ranges (${LONG_PDF_PAGES}-page PDFs)`, spread.jobs],
      ['lost jobs (not ended after the drain)', open.length],
      ['double charges', doubleCharged.length],
      ['jobs refunded more than charged', overRefunded.length],
      ['Σ ledger / Σ balances (points)', `${ledger.ledger} / ${ledger.balances}`],
      [
        'cancel requests / downloads / DOCX conversions',
        `${counts.cancels} / ${counts.downloads} / ${counts.conversions}`,
      ],
      [
        'GET /jobs/{id} p50 / p99',
        `${ms(percentile(readLatencies, 0.5))} / ${ms(percentile(readLatencies, 0.99))} (${readLatencies.length} reads)`,
      ],
      [
        'pages done per second, first upload to last end (the users’ pace, not capacity)',
        (donePages / (elapsed / 1000)).toFixed(1),
      ],
    ]);

    expect(ids.length).toBeGreaterThan(USERS * 3);
    expect(spread.jobs).toBeGreaterThan(0); // the long PDFs went through page ranges, disruptions and all
    expect(open).toEqual([]);
    expect(doubleCharged).toEqual([]);
    expect(overRefunded).toEqual([]);
    expect(ledger.ledger).toBe(ledger.balances);
    expect(status.done ?? 0).toBeGreaterThan(ids.length / 2);
  });
});
