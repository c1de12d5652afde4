import './support/register-aliases';
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createDataSource, migrate } from '@docconv/db';
import { resetContractOutput, spawnWorker, TEST_OUTPUT, waitForWorkerHeartbeat } from '@docconv/testing';

/**
 * One run = one fresh database on the given PostgreSQL, one Redis key prefix, one storage
 * folder, and one running worker. Nothing is shared with other runs.
 */
export default async function globalSetup(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl || !process.env.REDIS_URL) {
    throw new Error('DATABASE_URL and REDIS_URL must be set: run the tests with `npm test`, which provides them.');
  }
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const database = `docconv_test_${runId}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();

  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  Object.assign(process.env, {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    DOCCONV_TEST_SERVER_URL: serverUrl,
    DATABASE_URL: url.toString(),
    REDIS_PREFIX: `docconv-test-${runId}`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    FILE_URL_SECRET: randomBytes(32).toString('hex'),
    STORAGE_DIR: mkdtempSync(join(tmpdir(), 'docconv-storage-')),
    SCRATCH_DIR: mkdtempSync(join(tmpdir(), 'docconv-scratch-')),
    // Every test signs up and fails logins from 127.0.0.1: the per-client limits are tested with their own settings.
    SIGNUP_MAX_PER_ADDRESS: '1000000',
    LOGIN_MAX_FAILURES_PER_ADDRESS: '1000000',
    WORKER_CONCURRENCY: '2',
    STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}`,
    USAGE_FLUSH_INTERVAL_MS: '300',
  });

  const dataSource = await createDataSource(process.env.DATABASE_URL!).initialize();
  await migrate(dataSource);
  await dataSource.destroy();

  const since = Date.now();
  const worker = spawnWorker(process.env, 'worker-main');
  (globalThis as { __docconvWorker?: unknown }).__docconvWorker = worker;
  mkdirSync(TEST_OUTPUT, { recursive: true });
  resetContractOutput();
  writeFileSync(join(TEST_OUTPUT, 'run.json'), JSON.stringify({ database, prefix: process.env.REDIS_PREFIX }));
  await waitForWorkerHeartbeat(process.env, since);
}
