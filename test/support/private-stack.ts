import { spawnWorker, stopProcess, waitForWorkerHeartbeat } from '@docconv/testing';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createKey, signup, type TestKey } from './accounts';
import { createTestApp, type TestApp } from './test-app';

async function adminQuery(sql: string): Promise<void> {
  const admin = new Client({ connectionString: process.env.DOCCONV_TEST_SERVER_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/**
 * A database of its own on the suite's server (`<suite database>_<suffix>`), for processes whose
 * maintenance sweeps must not see the suite's jobs: a sweep resends every job of its database on
 * its own queues, where a worker with other storage cannot read the files.
 */
export function privateDatabase(suffix: string): {
  url: string;
  create: () => Promise<void>;
  drop: () => Promise<void>;
} {
  const url = new URL(process.env.DATABASE_URL!);
  const name = `${url.pathname.slice(1)}_${suffix}`;
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    create: () => adminQuery(`CREATE DATABASE ${name}`),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

export interface PrivateStack {
  /** The environment its API and workers run with; add to it before `start()` (e.g. a test server's URL). */
  env: NodeJS.ProcessEnv;
  t: TestApp;
  /** A key of a funded user. */
  key: TestKey;
  workers: ChildProcess[];
}

/**
 * A private database, Redis prefix and storage folder for one describe: its API and workers
 * share queues, jobs and files no other test uses (the maintenance sweeps of one stack never touch another's jobs), so
 * workers can be configured, stopped, killed and started without touching the rest of the suite.
 */
export function privateStack(tag: string, extraEnv: Record<string, string> = {}) {
  const suffix = `${tag}_${randomBytes(3).toString('hex')}`;
  const database = privateDatabase(suffix);
  const stack = {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-${suffix}`,
      STORAGE_DIR: `${process.env.STORAGE_DIR}-${suffix}`,
      ...extraEnv,
    },
    workers: [],
  } as unknown as PrivateStack;
  beforeAll(async () => {
    await database.create();
    stack.t = await createTestApp({}, stack.env);
    const user = await signup(stack.t.http, tag);
    stack.key = await createKey(stack.t.http, user, { rate_limit_rpm: 100_000 });
    await stack.t.app.get(DataSource).query('UPDATE users SET points_balance = 1000000 WHERE id = $1', [user.userId]);
  });
  afterAll(async () => {
    for (const w of stack.workers) await stopProcess(w, 'SIGKILL');
    await stack.t.close();
    await database.drop();
    await rm(stack.env.STORAGE_DIR!, { recursive: true, force: true });
  });
  /** Starts a worker (one job at a time unless `env` says otherwise) and waits for its first heartbeat. */
  const start = async (env: Record<string, string> = {}): Promise<ChildProcess> => {
    const since = Date.now();
    const child = spawnWorker({ ...stack.env, WORKER_CONCURRENCY: '1', ...env }, `worker-${tag}`);
    stack.workers.push(child);
    await waitForWorkerHeartbeat(stack.env, since);
    return child;
  };
  return { stack, start };
}

/** The parts of `GET /capabilities` the tests read. */
export interface CapabilitiesBody {
  ocr_engines: string[];
  default_ocr_engine: string;
  ocr_languages: string[];
  transcription: {
    available: boolean;
    model: { name: string; sha256: string; official: boolean; engine: string; languages: string[] } | null;
  };
  refinement: { available: boolean; model: string | null };
  limits: { max_upload_bytes: number; dpi_min: number; dpi_max: number };
  reported_at: string | null;
}

/** Waits until `GET /capabilities` satisfies `ready` (workers report at boot; the API caches for 2 s). */
export async function waitForCapabilities(
  stack: PrivateStack,
  ready: (capabilities: CapabilitiesBody) => boolean,
  timeoutMs = 15_000,
): Promise<CapabilitiesBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = (await stack.t.http.get('/api/v1/capabilities').expect(200)).body as CapabilitiesBody;
    if (ready(body)) return body;
    if (Date.now() > deadline)
      throw new Error(`capabilities not as expected after ${timeoutMs} ms: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
