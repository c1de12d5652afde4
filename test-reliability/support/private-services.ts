import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, startPostgresServer, stopChild, waitForPort, type PostgresServer } from '../../tools/stack/services';

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
 * An embedded PostgreSQL cluster in a temporary folder on a free port, with one database
 * `docconv`, in the same PostgreSQL server process (tools/stack/postgres-server.ts) as the local stack's. The data
 * stays on disk across `stop()`/`start()`, as a database server's does across a restart.
 */
export async function startPrivatePostgres(): Promise<StoppableServer> {
  const base = await mkdtemp(join(tmpdir(), 'docconv-reliability-pg-'));
  await chmod(base, 0o755); // the postgres user must be able to reach its data directory
  const port = await freePort();
  const password = 'docconv';
  let server: PostgresServer | undefined;
  const start = async (): Promise<void> => {
    server = await startPostgresServer({ databaseDir: join(base, 'postgres'), port, password, log: () => undefined });
  };
  const stop = async (): Promise<void> => {
    await server?.stop();
    server = undefined;
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
