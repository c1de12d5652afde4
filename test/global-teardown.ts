import './support/register-aliases';
import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { stopProcess, summariseContract } from '@docconv/testing';

/**
 * Stops the run's worker and removes its database, Redis keys and storage folder, then prints
 * how the run's responses matched openapi.json (test-output/contract/summary.json).
 */
export default async function globalTeardown(): Promise<void> {
  const worker = (globalThis as { __docconvWorker?: ChildProcess }).__docconvWorker;
  if (worker) await stopProcess(worker);

  const redis = new Redis(process.env.REDIS_URL!);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${process.env.REDIS_PREFIX}:*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  redis.disconnect();

  const database = new URL(process.env.DATABASE_URL!).pathname.slice(1);
  const admin = new Client({ connectionString: process.env.DOCCONV_TEST_SERVER_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
  if (process.env.STORAGE_DIR) await rm(process.env.STORAGE_DIR, { recursive: true, force: true });
  if (process.env.SCRATCH_DIR) await rm(process.env.SCRATCH_DIR, { recursive: true, force: true });
  const contract = summariseContract();
  if (contract) console.log(contract);
}
