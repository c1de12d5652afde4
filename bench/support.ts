import 'reflect-metadata';
import { ApiKeysService, UsersService } from '@docconv/accounts';
import { LedgerService } from '@docconv/billing';
import { loadConfig } from '@docconv/config';
import { Queues } from '@docconv/redis';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import sharp from 'sharp';
import type { GreyImage } from '@docconv/ocr';
import { DataSource } from 'typeorm';
import { createApiApp } from '../apps/api/src/api.factory';
import { pdfBytes } from '../libs/documents/src/pdf/testing/pdf-bytes';

export const BENCH_DATA = resolve('.data', 'bench');

/** Secrets for an in-process API when the stack runner did not provide them. */
export function benchEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    JWT_SECRET: process.env.JWT_SECRET ?? randomBytes(32).toString('hex'),
    FILE_URL_SECRET: process.env.FILE_URL_SECRET ?? randomBytes(32).toString('hex'),
    STORAGE_DIR: process.env.STORAGE_DIR ?? join(BENCH_DATA, 'storage'),
    REDIS_PREFIX: `bench-${randomBytes(3).toString('hex')}`,
    LOG_LEVEL: 'warn',
  };
}

/** Writes a PDF whose A4 pages are `images`, grey pictures with no text layer: a scan. */
export async function scanPdf(images: GreyImage[], path: string): Promise<void> {
  const pngs = await Promise.all(
    images.map((image) =>
      sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
        .png()
        .toBuffer(),
    ),
  );
  const bytes = await pdfBytes((doc) => {
    for (const png of pngs) {
      doc.addPage({ size: 'A4', margin: 0 });
      doc.image(png, 0, 0, { width: 595.28, height: 841.89 });
    }
  });
  writeFileSync(path, bytes);
}

/** A text PDF of `pages` pages, generated once and kept under .data/bench. */
export async function textPdf(pages: number): Promise<string> {
  mkdirSync(BENCH_DATA, { recursive: true });
  const path = join(BENCH_DATA, `text-${pages}.pdf`);
  if (existsSync(path)) return path;
  const bytes = await pdfBytes((doc) => {
    for (let n = 1; n <= pages; n++) {
      doc.addPage({ size: 'A4', margin: 72 });
      doc.fontSize(11).text(`Page ${n}. ${'The quick brown fox jumps over the lazy dog. '.repeat(20)}`);
    }
  });
  writeFileSync(path, bytes);
  return path;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export function table(title: string, rows: Record<string, string | number>[]): string {
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [
    `\n${title}`,
    line(columns),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(columns.map((c) => String(r[c])))),
  ].join('\n');
}

export function readBytes(path: string): Buffer {
  return readFileSync(path);
}

/** The in-process API and a real worker process beside it, with a funded user and an API key. */
export interface BenchStack {
  url: string;
  headers: Record<string, string>;
  worker: ChildProcess;
  /** Every worker process, `worker` first. */
  workers: ChildProcess[];
  /** Headers of another funded user with a key of their own (another tenant). */
  tenant(): Promise<Record<string, string>>;
  /**
   * When the last of the jobs ended, read from the database to the microsecond: the API's
   * `finished_at` is given to the second, too coarse to time jobs that take a fraction of one.
   */
  lastFinished(ids: string[]): Promise<number>;
  /** Resolves once every worker process takes messages from the parse queue. */
  workersReady(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the stack of `BenchStack`; `workerEnv` adds to the workers' environment, `apiEnv` to the
 * API's, and `workers` worker processes are started (one by default).
 */
export async function apiWithWorker(
  workerEnv: Record<string, string> = {},
  { apiEnv = {}, workers: count = 1 }: { apiEnv?: Record<string, string>; workers?: number } = {},
): Promise<BenchStack> {
  const env = benchEnv();
  const app = await createApiApp(loadConfig({ ...env, ...apiEnv }));
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const workers = Array.from({ length: count }, () =>
    spawn(process.execPath, [join(__dirname, '..', 'apps', 'worker', 'src', 'main.js')], {
      env: { ...env, ...workerEnv },
      stdio: 'ignore',
    }),
  );
  const tenant = async (): Promise<Record<string, string>> => {
    const user = await app.get(UsersService).create(`bench-${randomUUID()}@example.test`, 'benchmark password');
    await app.get(LedgerService).post({
      userId: user.id,
      type: 'grant',
      points: 100_000_000,
      description: 'bench',
      idempotencyKey: `bench:${user.id}`,
    });
    const { secret } = await app.get(ApiKeysService).create(user.id, { rateLimitRpm: 100_000 });
    return { 'X-API-Key': secret };
  };
  return {
    url,
    headers: await tenant(),
    worker: workers[0],
    workers,
    tenant,
    lastFinished: async (ids) => {
      const [row] = await app
        .get(DataSource)
        .query<{ last: Date | null }[]>('SELECT max(finished_at) AS last FROM jobs WHERE id = ANY($1)', [ids]);
      if (!row.last) throw new Error('none of the jobs has ended');
      return row.last.getTime();
    },
    workersReady: async () => {
      const deadline = Date.now() + 60_000;
      while ((await app.get(Queues).workersOn('parse')) < count) {
        if (Date.now() > deadline)
          throw new Error(`fewer than ${count} worker processes on the parse queue after a minute`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    close: async () => {
      for (const worker of workers) worker.kill('SIGTERM');
      await app.close();
    },
  };
}

/** Uploads one file and returns its job's id and page count (the job is not confirmed). */
export async function previewJob(
  stack: BenchStack,
  path: string,
  mime: string,
  fields: Record<string, string> = {},
): Promise<{ id: string; pages: number }> {
  const form = new FormData();
  form.append('files', new Blob([readBytes(path)], { type: mime }), basename(path));
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const res = await fetch(`${stack.url}/api/v1/jobs/upload`, { method: 'POST', headers: stack.headers, body: form });
  const body = (await res.json()) as { job_id: string; total_pages: number; detail?: string };
  if (res.status !== 201) throw new Error(`upload of ${basename(path)} failed: ${res.status} ${body.detail}`);
  return { id: body.job_id, pages: body.total_pages };
}

/**
 * Confirms the jobs all at once (the requests sent together, as a client with many files sends
 * them) and waits until every one has ended; returns the seconds from the first confirm to the
 * last job's end (`lastFinished`), and the jobs that did not end `done`. Jobs are asked after one
 * at a time, every 100 ms, so that the polling takes next to nothing from the worker being
 * measured (a job's recorded end, not the moment it is seen, ends the timing).
 */
export async function runJobs(
  stack: BenchStack,
  ids: string[],
  limitSeconds = 600,
): Promise<{ seconds: number; failed: string[] }> {
  const started = Date.now();
  await Promise.all(
    ids.map(async (id) => {
      const res = await fetch(`${stack.url}/api/v1/jobs/${id}/confirm`, { method: 'POST', headers: stack.headers });
      if (res.status !== 200) throw new Error(`confirm of ${id} failed: ${res.status} ${await res.text()}`);
    }),
  );
  const failed: string[] = [];
  for (const id of ids) {
    for (;;) {
      if (Date.now() - started > limitSeconds * 1000) throw new Error(`the jobs did not end within ${limitSeconds} s`);
      const job = (await (await fetch(`${stack.url}/api/v1/jobs/${id}`, { headers: stack.headers })).json()) as {
        status: string;
      };
      if (['done', 'error', 'cancelled'].includes(job.status)) {
        if (job.status !== 'done') failed.push(id);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { seconds: ((await stack.lastFinished(ids)) - started) / 1000, failed };
}
