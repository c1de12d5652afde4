import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { WORKER_HEARTBEAT_KEY } from '@docconv/contracts';

export const REPO_ROOT = resolve(__dirname, '..', '..', '..');
export const TEST_OUTPUT = join(REPO_ROOT, 'test-output');

/** A compiled entry point; the test command builds before it tests. */
export function distEntry(app: 'api' | 'worker' | 'admin'): string {
  const path = join(REPO_ROOT, 'dist', 'apps', app, 'src', 'main.js');
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` before the tests`);
  return path;
}

/** Starts a worker process on the test database and Redis prefix; its log goes to test-output/. */
export function spawnWorker(env: NodeJS.ProcessEnv = process.env, logName = 'worker'): ChildProcess {
  mkdirSync(TEST_OUTPUT, { recursive: true });
  const log = createWriteStream(join(TEST_OUTPUT, `${logName}-${process.pid}-${Date.now()}.log`));
  const child = spawn(process.execPath, [distEntry('worker')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
}

/** A TCP port free on 127.0.0.1 at the time of asking. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/** An API process of the build (`dist/apps/api/src/main.js`) on its own port; its log goes to test-output/. */
export interface ApiProcess {
  child: ChildProcess;
  url: string;
}

/**
 * Starts an API process on a free port with `env` and resolves once it answers
 * `GET /api/v1/health`, so that tests can run several replicas side by side.
 */
export async function spawnApi(env: NodeJS.ProcessEnv, logName = 'api', timeoutMs = 60_000): Promise<ApiProcess> {
  const port = await freePort();
  mkdirSync(TEST_OUTPUT, { recursive: true });
  const log = createWriteStream(join(TEST_OUTPUT, `${logName}-${process.pid}-${Date.now()}.log`));
  const child = spawn(process.execPath, [distEntry('api')], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the API exited with ${child.exitCode}; see ${logName} in test-output/`);
    const healthy = await fetch(`${url}/api/v1/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (healthy) return { child, url };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the API did not answer within ${timeoutMs} ms; see ${logName} in test-output/`);
}

/** Resolves once a worker heartbeat newer than `since` is in Redis. */
export async function waitForWorkerHeartbeat(env: NodeJS.ProcessEnv, since: number, timeoutMs = 30_000): Promise<void> {
  const redis = new Redis(env.REDIS_URL!, { lazyConnect: true });
  await redis.connect();
  try {
    const key = `${env.REDIS_PREFIX}:${WORKER_HEARTBEAT_KEY}`;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await redis.zcount(key, since, '+inf')) > 0) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no worker heartbeat within ${timeoutMs} ms; see the worker log in test-output/`);
  } finally {
    redis.disconnect();
  }
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when the grace period ran out and the process had to be killed. */
  forced: boolean;
}

/** Sends `signal` and waits for the process to be gone, killing it after `graceMs`. */
export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 20_000): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode, forced: false });
  }
  return new Promise((done) => {
    let forced = false;
    const timer = setTimeout(() => {
      forced = true;
      child.kill('SIGKILL');
    }, graceMs);
    child.once('exit', (code, exitSignal) => {
      clearTimeout(timer);
      done({ code, signal: exitSignal, forced });
    });
    child.kill(signal);
  });
}
