import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { QUEUE_NAMES, SCHEDULED_JOBS } from '@docconv/contracts';
import { createDataSource, migrate } from '@docconv/db';
import { spawnWorker, stopProcess, waitForWorkerHeartbeat } from '@docconv/testing';
import { createKey, signup, type TestKey } from '../test/support/accounts';
import { waitForJob } from '../test/support/jobs';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { convertMarkdown, grant, serve } from './support/api';
import { formatHistogram, histogram, ms, percentile, printFigures } from './support/figures';
import { startPrivatePostgres, startPrivateRedis, type StoppableServer } from './support/private-services';
import { RequestLoad, send, type Answer, type Sample } from './support/request-load';

const ACCOUNT = '/api/v1/account';
const READY = '/api/v1/health/ready';
/** Answers per path the load must get while a server is down before it is brought back. */
const ANSWERS_DURING_OUTAGE = 50;
/** How long any one request may take to answer, even while a dependency is down. */
const ANSWER_LIMIT_MS = 5_000;
/** How long the service may take to work again once the server is back. */
const RECOVERY_LIMIT_MS = 10_000;

/** A job sent while a dependency was down: the upload's answer and, if it made a job, the confirm's. */
interface Submission {
  jobId: string | undefined;
  upload: Answer;
  confirm: Answer | undefined;
}

/** What one outage looked like from the clients' side. */
interface OutageReport {
  /** The load's answers sent while the server was down, by path. */
  during: Record<string, Sample[]>;
  submitted: Submission;
  /** From the server being back until readiness and an authenticated request both succeed. */
  recoveredInMs: number;
  /** Upload → confirm → done on the API and worker that lived through the outage. */
  roundTripMs: number;
}

/**
 * Its own PostgreSQL and Redis, which the test stops and starts, with an API and a worker on
 * them that are never restarted: while a dependency is away the service answers 503 (or
 * serves what does not need it), never 500 and never slowly; once it is back it works again
 * on its own.
 */
describe('outages of Redis and PostgreSQL', () => {
  let redis: StoppableServer;
  let postgres: StoppableServer;
  let storageDir: string;
  let t: TestApp;
  let baseUrl: string;
  let worker: ChildProcess;
  let key: TestKey;
  let load: RequestLoad;

  beforeAll(async () => {
    [redis, postgres] = await Promise.all([startPrivateRedis(), startPrivatePostgres()]);
    storageDir = await mkdtemp(join(tmpdir(), 'docconv-reliability-storage-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: `docconv-outage-${randomBytes(3).toString('hex')}`,
      STORAGE_DIR: storageDir,
      WORKER_CONCURRENCY: '1',
      LOG_LEVEL: 'fatal', // every request during an outage is logged as an error; the figures say what happened
    };
    const dataSource = await createDataSource(postgres.url).initialize();
    await migrate(dataSource);
    await dataSource.destroy();
    t = await createTestApp({}, env);
    silenceQueueErrors(t);
    baseUrl = await serve(t);
    const since = Date.now();
    worker = spawnWorker(env, 'worker-outage');
    await waitForWorkerHeartbeat(env, since);
    const user = await signup(t.http, 'outage');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    await grant(t, user.userId, 1_000_000);
    await convertMarkdown(t, key); // the whole path works before anything is taken away
    load = new RequestLoad(baseUrl, key.key, [ACCOUNT, READY], 100, ANSWER_LIMIT_MS);
    load.start();
  }, 120_000);

  afterAll(async () => {
    await load?.stop();
    if (worker) await stopProcess(worker, 'SIGKILL');
    await t?.close();
    await Promise.all([redis?.destroy(), postgres?.destroy()]);
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
  });

  it('Redis stops: requests pass or get 503, never 500 or a hang; once it is back everything works again', async () => {
    const report = await outage(redis);
    const schedules = await waitForMaintenanceSchedules(Date.now() + RECOVERY_LIMIT_MS);
    print('Outage: Redis stopped and restarted (empty)', report, [
      ['maintenance schedules after restart', `${schedules.length} of ${SCHEDULED_JOBS.length}`],
    ]);

    // The rate limiter lets keyed requests through while Redis is away; readiness says it is down.
    expect(
      unexpectedAnswers([
        [`GET ${ACCOUNT}`, report.during[ACCOUNT], [200, 503]],
        [`GET ${READY}`, report.during[READY], [503]],
      ]),
    ).toEqual({});
    // Uploading needs no Redis; a confirm is charged in PostgreSQL and sent to the queue once it is back.
    expect(report.submitted.upload.status).toBe(201);
    expect(report.submitted.confirm?.status).toBe(200);
    expect(await waitForJob(t.http, key.key, report.submitted.jobId!)).toMatchObject({ status: 'done' });
    expect(report.recoveredInMs).toBeLessThanOrEqual(RECOVERY_LIMIT_MS);
    // The queue's own data went with Redis: the worker must schedule its sweeps again.
    expect(schedules.sort()).toEqual(SCHEDULED_JOBS.map((s) => s.name).sort());
  });

  it('PostgreSQL stops: requests get 503 problem+json, never 500 or a hang; once it is back everything works again', async () => {
    const report = await outage(postgres);
    print('Outage: PostgreSQL stopped and restarted', report);

    expect(
      unexpectedAnswers([
        [`GET ${ACCOUNT}`, report.during[ACCOUNT], [503]],
        [`GET ${READY}`, report.during[READY], [503]],
        ['POST /api/v1/jobs/upload', [report.submitted.upload], [503]],
      ]),
    ).toEqual({});
    expect(report.recoveredInMs).toBeLessThanOrEqual(RECOVERY_LIMIT_MS);
  });

  it('over the whole run no request got a 500, a broken connection or no answer', async () => {
    await load.stop();
    const outcomes = load.samples.map((s) => s.status);
    printFigures('Outages: every request of the load', [
      ['requests', load.samples.length],
      ['outcomes', formatHistogram(histogram(outcomes))],
      ['slowest answer', ms(Math.max(...load.samples.map((s) => s.ms)))],
    ]);
    const broken = load.samples.filter((s) => typeof s.status !== 'number' || (s.status >= 500 && s.status !== 503));
    expect(histogram(broken.map((s) => `GET ${s.path} → ${s.status}`))).toEqual({});
  });

  /**
   * Takes `server` away, sends a job and lets the load collect answers, brings the server back,
   * measures how long until readiness and an authenticated request succeed again, then runs a
   * job from upload to done.
   */
  async function outage(server: StoppableServer): Promise<OutageReport> {
    await server.stop();
    const down = Date.now();
    const submitted = await submitJob();
    await load.waitForSamplesSince(down, ANSWERS_DURING_OUTAGE);
    const back = Date.now();
    const during = { [ACCOUNT]: load.between(ACCOUNT, down, back), [READY]: load.between(READY, down, back) };
    await server.start();
    const up = Date.now();
    const recoveredInMs = (await waitForRecovery(up + RECOVERY_LIMIT_MS)) - up;
    const roundTripStarted = Date.now();
    await convertMarkdown(t, key, 30_000);
    return { during, submitted, recoveredInMs, roundTripMs: Date.now() - roundTripStarted };
  }

  /** Uploads a Markdown file and, if that made a job, confirms it. */
  async function submitJob(): Promise<Submission> {
    const form = new FormData();
    form.append('files', new Blob(['# Sent during an outage\n']), 'outage.md');
    const upload = await send(baseUrl, key.key, '/api/v1/jobs/upload', ANSWER_LIMIT_MS, { method: 'POST', body: form });
    const jobId = (upload.json as { job_id?: string } | null)?.job_id;
    const confirm = jobId
      ? await send(baseUrl, key.key, `/api/v1/jobs/${jobId}/confirm`, ANSWER_LIMIT_MS, { method: 'POST' })
      : undefined;
    return { jobId, upload, confirm };
  }

  /** Polls until readiness and the account both answer 200; returns when, or throws after `deadline`. */
  async function waitForRecovery(deadline: number): Promise<number> {
    for (;;) {
      const [ready, account] = await Promise.all([
        send(baseUrl, key.key, READY, ANSWER_LIMIT_MS),
        send(baseUrl, key.key, ACCOUNT, ANSWER_LIMIT_MS),
      ]);
      if (ready.status === 200 && account.status === 200) return Date.now();
      if (Date.now() > deadline) {
        throw new Error(
          `not working ${RECOVERY_LIMIT_MS} ms after the server came back: readiness ${ready.status}, account ${account.status}`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The maintenance queue's schedules, once all are there or when `deadline` passes. */
  async function waitForMaintenanceSchedules(deadline: number): Promise<string[]> {
    const maintenance = t.app.get<Queue>(getQueueToken('maintenance'));
    for (;;) {
      const names = (await maintenance.getJobSchedulers()).map((s) => s.key);
      if (names.length >= SCHEDULED_JOBS.length || Date.now() > deadline) return names;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  function print(title: string, report: OutageReport, extra: [string, string][] = []): void {
    const summary = (samples: Sample[]) =>
      `${formatHistogram(histogram(samples.map((s) => s.status)))}  (p95 ${ms(
        percentile(
          samples.map((s) => s.ms),
          0.95,
        ),
      )}, max ${ms(Math.max(...samples.map((s) => s.ms)))})`;
    const answer = (a: Answer | undefined) => (a ? `${a.status} in ${ms(a.ms)}` : '(no job to confirm)');
    printFigures(title, [
      [`GET ${ACCOUNT} while down`, summary(report.during[ACCOUNT])],
      [`GET ${READY} while down`, summary(report.during[READY])],
      ['upload while down', answer(report.submitted.upload)],
      ['confirm while down', answer(report.submitted.confirm)],
      ['working again after restart', ms(report.recoveredInMs)],
      ['then upload → confirm → done', ms(report.roundTripMs)],
      ...extra,
    ]);
  }
});

/**
 * The API's BullMQ queues have no `error` listener, so BullMQ prints every failed reconnect
 * with console.error while Redis is away; a listener keeps the figures readable.
 */
function silenceQueueErrors(t: TestApp): void {
  for (const name of QUEUE_NAMES) t.app.get<Queue>(getQueueToken(name)).on('error', () => undefined);
}

/**
 * The answers got while a dependency was down that break the rule: for each request, a status
 * outside `allowed`, no answer in time, or a 503 that is not problem+json. Counted by what came
 * back, so a failure reads e.g. `{ "GET /api/v1/account → 500 (problem+json)": 50 }`.
 */
function unexpectedAnswers(
  expectations: [what: string, answers: Answer[], allowed: number[]][],
): Record<string, number> {
  return histogram(
    expectations.flatMap(([what, answers, allowed]) =>
      answers
        .filter((a) => !allowed.includes(a.status as number) || (a.status === 503 && !a.problemJson))
        .map((a) => `${what} → ${a.status}${a.problemJson ? ' (problem+json)' : ''}`),
    ),
  );
}
