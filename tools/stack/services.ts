/**
 * The servers the stack needs, started on free ports: PostgreSQL (embedded, or the persistent one),
 * Redis, the S3-compatible test servers, and the secrets kept between runs.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import { persistentDataDir, reachableBinaries, runsAsPostgresUser, unreachableFolder } from './postgres-location';
import type { PostgresServerOptions } from './postgres-server';
import { freePort, spawnInOwnGroup, stopChild, waitForPort } from './child-processes';

/** For the reliability suites, which start private servers the same way. */
export { freePort, stopChild, waitForPort } from './child-processes';

/** Project-local state of the embedded default: database files, storage, secrets. */
export const DATA_DIR = resolve('.data');

export interface RunningServices {
  env: Record<string, string>;
  /** Where the embedded PostgreSQL keeps its data, when one was started. */
  databaseDir?: string;
  /** Stops the servers in the reverse order of their start. */
  stop(): Promise<void>;
}

type Say = (line: string) => void;

/**
 * Where the tests' S3-compatible server listens (set by `stack run`, read by the storage suite):
 * moto in server mode, from the test tools' venv. Any key id and secret are accepted.
 */
export const TEST_S3_ENDPOINT = 'DOCCONV_TEST_S3_ENDPOINT';

/**
 * Where the tests' S3-compatible server that checks signatures listens, and the one key it takes
 * (set by `stack run`, read by the storage suites): s3s-fs, built by setup into `.tools/s3s-fs`,
 * its buckets in a temporary folder. It refuses a request or a presigned link whose SigV4 signature
 * does not match what was asked for, and a presigned link past its `X-Amz-Expires`. A fresh key and
 * secret each run.
 */
export const TEST_SIGV4_S3 = {
  endpoint: 'DOCCONV_TEST_SIGV4_S3_ENDPOINT',
  accessKeyId: 'DOCCONV_TEST_SIGV4_S3_ACCESS_KEY_ID',
  secretAccessKey: 'DOCCONV_TEST_SIGV4_S3_SECRET_ACCESS_KEY',
} as const;

/**
 * Makes sure the service has a PostgreSQL, a Redis and its secrets. What the environment
 * names is used as it is; what it leaves unset is provided here: an embedded PostgreSQL,
 * a `redis-server` child on a private port, and secrets generated once and kept in `.data/`.
 * `ephemeral` keeps nothing on disk (for test runs) and adds two S3-compatible servers for the
 * tests (TEST_S3_ENDPOINT, and TEST_SIGV4_S3 that checks signatures). `say` is for what a person
 * must read; `log` (default `say`) for the servers' own messages. Each server runs in its own process group: a Ctrl-C at the terminal
 * reaches only the launcher, which stops them.
 */
export async function ensureServices(options: { ephemeral: boolean; say: Say; log?: Say }): Promise<RunningServices> {
  const log = options.log ?? options.say;
  const env: Record<string, string> = {};
  let databaseDir: string | undefined;
  const stops: (() => Promise<void>)[] = [];
  const stop = async (): Promise<void> => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    // PostgreSQL and Redis start side by side; whichever started is stopped if the other fails
    const [pg, redis] = await Promise.allSettled([
      process.env.DATABASE_URL
        ? undefined
        : startEmbeddedPostgres({ ephemeral: options.ephemeral, say: options.say, log }),
      process.env.REDIS_URL ? undefined : startRedis(log),
    ]);
    for (const started of [pg, redis])
      if (started.status === 'fulfilled' && started.value) stops.push(started.value.stop);
    for (const started of [pg, redis]) if (started.status === 'rejected') throw started.reason;
    if (pg.status === 'fulfilled' && pg.value) {
      env.DATABASE_URL = pg.value.url;
      databaseDir = pg.value.databaseDir;
    }
    if (redis.status === 'fulfilled' && redis.value) env.REDIS_URL = redis.value.url;
    if (options.ephemeral && !process.env[TEST_S3_ENDPOINT]) {
      const s3 = await startS3(log);
      env[TEST_S3_ENDPOINT] = s3.url;
      stops.push(s3.stop);
    }
    if (options.ephemeral && !process.env[TEST_SIGV4_S3.endpoint]) {
      const s3 = await startSigV4S3(log);
      Object.assign(env, s3.env);
      stops.push(s3.stop);
    }
    if (!options.ephemeral) Object.assign(env, await persistedSecrets());
    if (!process.env.STORAGE_DIR && !options.ephemeral) env.STORAGE_DIR = join(DATA_DIR, 'storage');
  } catch (error) {
    await stop();
    throw error;
  }
  return { env, databaseDir, stop };
}

/** The compiled entry of the PostgreSQL server process (tests run this file from its TypeScript source). */
const POSTGRES_SERVER = existsSync(join(__dirname, 'postgres-server.js'))
  ? join(__dirname, 'postgres-server.js')
  : resolve(__dirname, '..', '..', 'dist', 'tools', 'stack', 'postgres-server.js');

export interface PostgresServer {
  /** The server's own `postgres` database. */
  url: string;
  /** The PostgreSQL server process's Node parent (postgres-server.ts), which stops the server when it stops. */
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts one embedded PostgreSQL server in a Node process of its own (postgres-server.ts) on
 * `port`, with its data in `databaseDir` (initialised the first time), and resolves once it
 * accepts connections. The process runs in its own process group, so a Ctrl-C at the terminal
 * reaches only its parent, which stops it in its turn; it also stops when its parent goes away.
 */
export async function startPostgresServer(options: {
  databaseDir: string;
  port: number;
  password: string;
  log: Say;
}): Promise<PostgresServer> {
  const binaries = await reachableBinaries();
  const settings: PostgresServerOptions = {
    databaseDir: options.databaseDir,
    port: options.port,
    user: 'postgres',
    password: options.password,
    binaries,
  };
  const child = spawnInOwnGroup(process.execPath, [POSTGRES_SERVER, JSON.stringify(settings)], {
    // initdb and postgres run as the postgres user when root starts them: they start in a folder it can enter
    cwd: dirname(options.databaseDir),
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
    for (const line of chunk.toString().split('\n').filter(Boolean)) options.log(`postgres: ${line}`);
  });
  await new Promise<void>((ready, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) ready();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`The embedded PostgreSQL stopped (exit code ${code}) before it was ready: ${errors.trim()}`)),
    );
  });
  return {
    url: `postgres://postgres:${options.password}@127.0.0.1:${options.port}/postgres`,
    child,
    stop: () => stopChild(child, 15_000),
  };
}

async function startEmbeddedPostgres(options: {
  ephemeral: boolean;
  say: Say;
  log: Say;
}): Promise<{ url: string; databaseDir: string; stop: () => Promise<void> }> {
  let base: string;
  let databaseDir: string;
  if (options.ephemeral) {
    base = await mkdtemp(join(tmpdir(), 'docconv-pg-'));
    await chmod(base, 0o755); // the postgres user must be able to reach its data directory
    databaseDir = join(base, 'postgres');
    const blocked = runsAsPostgresUser() ? unreachableFolder(base, (folder) => statSync(folder).mode) : null;
    if (blocked) {
      await rm(base, { recursive: true, force: true });
      throw new Error(
        `The postgres user cannot enter ${blocked}: set TMPDIR to a folder it can reach (e.g. /tmp), or set DATABASE_URL.`,
      );
    }
  } else {
    databaseDir = persistentDataDir(process.cwd());
    base = dirname(databaseDir);
    await mkdir(base, { recursive: true });
    await chmod(base, 0o755); // the postgres user must be able to reach its data directory
  }
  if (!existsSync(join(databaseDir, 'PG_VERSION')))
    options.say(`Initialising an embedded PostgreSQL in ${databaseDir}`);
  const password = 'docconv';
  const server = await startPostgresServer({ databaseDir, port: await freePort(), password, log: options.log });
  const stop = async (): Promise<void> => {
    await server.stop();
    if (options.ephemeral) await rm(base, { recursive: true, force: true });
  };
  try {
    await ensureDatabase(server.url, 'docconv');
  } catch (error) {
    await stop();
    throw error;
  }
  options.log(`Embedded PostgreSQL on ${new URL(server.url).host}, data in ${databaseDir}`);
  return { url: server.url.replace(/\/postgres$/, '/docconv'), databaseDir, stop };
}

async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
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
  const child = spawnInOwnGroup(
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
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) say(`redis-server: ${line}`);
  });
  await waitForPort(port, child, 'redis-server');
  say(`Private redis-server on 127.0.0.1:${port}`);
  return { url: `redis://127.0.0.1:${port}`, stop: () => stopChild(child, 5_000) };
}

/** moto's S3 server on a private port, its buckets in memory. */
async function startS3(say: Say): Promise<{ url: string; stop: () => Promise<void> }> {
  const program = resolve('.venv', 'bin', 'moto_server');
  if (!existsSync(program)) {
    throw new Error(
      `${program} is not installed. Run ./scripts/setup-tests.sh (it installs the test tools), or set ${TEST_S3_ENDPOINT}.`,
    );
  }
  const port = await freePort();
  const child = spawnInOwnGroup(program, ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  await waitForPort(port, child, 'moto_server');
  say(`Private S3 server (moto) on 127.0.0.1:${port}`);
  return { url: `http://127.0.0.1:${port}`, stop: () => stopChild(child, 5_000) };
}

/** s3s-fs on a private port with a key of its own, its buckets in a temporary folder. */
async function startSigV4S3(say: Say): Promise<{ env: Record<string, string>; stop: () => Promise<void> }> {
  const program = resolve('.tools', 's3s-fs', 'bin', 's3s-fs');
  if (!existsSync(program)) {
    throw new Error(
      `${program} is not installed. Run ./scripts/setup-tests.sh (it builds it), or set ${Object.values(TEST_SIGV4_S3).join(', ')}.`,
    );
  }
  const root = await mkdtemp(join(tmpdir(), 'docconv-s3s-'));
  const accessKeyId = `docconv-${randomBytes(8).toString('hex')}`;
  // Hex, not base64url: a secret that starts with `-` is read as an option, and s3s-fs exits with code 2.
  const secretAccessKey = randomBytes(30).toString('hex');
  // A free port can be taken by another process before s3s-fs binds it (it then exits at once):
  // a few tries, each on a new port.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawnInOwnGroup(
      program,
      [
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--access-key',
        accessKeyId,
        '--secret-key',
        secretAccessKey,
        root,
      ],
      { stdio: ['ignore', 'ignore', 'ignore'] },
    );
    const stop = async (): Promise<void> => {
      await stopChild(child, 5_000);
      await rm(root, { recursive: true, force: true });
    };
    try {
      await waitForPort(port, child, 's3s-fs');
    } catch (error) {
      await stopChild(child, 5_000);
      if (attempt < 3) continue;
      await stop();
      throw error;
    }
    say(`Private S3 server that checks signatures (s3s-fs) on 127.0.0.1:${port}`);
    return {
      env: {
        [TEST_SIGV4_S3.endpoint]: `http://127.0.0.1:${port}`,
        [TEST_SIGV4_S3.accessKeyId]: accessKeyId,
        [TEST_SIGV4_S3.secretAccessKey]: secretAccessKey,
      },
      stop,
    };
  }
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
