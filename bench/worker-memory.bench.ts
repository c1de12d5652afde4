import { ApiKeysService, UsersService } from '@docconv/accounts';
import { LedgerService } from '@docconv/billing';
import { loadConfig } from '@docconv/config';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiApp } from '../apps/api/src/api.factory';
import { benchEnv, readBytes, table, textPdf } from './support';

/** Peak resident memory (VmHWM) of a process, in MB, from /proc. */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/**
 * The worker's peak memory on a 1,000-page text PDF job: a real worker process (one job at a
 * time) takes the job from the queue; its peak resident set is read from /proc when it is done.
 */
export async function benchWorkerMemory(): Promise<string> {
  const env = benchEnv();
  const app = await createApiApp(loadConfig(env));
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const worker = spawn(process.execPath, [join(__dirname, '..', 'apps', 'worker', 'src', 'main.js')], {
    env: { ...env, WORKER_CONCURRENCY: '1' },
    stdio: 'ignore',
  });
  try {
    const user = await app.get(UsersService).create(`bench-${randomUUID()}@example.test`, 'benchmark password');
    await app.get(LedgerService).post({
      userId: user.id,
      type: 'grant',
      points: 1_000_000,
      description: 'bench',
      idempotencyKey: `bench:${user.id}`,
    });
    const { secret } = await app.get(ApiKeysService).create(user.id, { rateLimitRpm: 100_000 });
    const headers = { 'X-API-Key': secret };
    const pages = 1_000;
    const form = new FormData();
    form.append('files', new Blob([readBytes(await textPdf(pages))], { type: 'application/pdf' }), 'memory.pdf');
    const preview = (await (
      await fetch(`${url}/api/v1/jobs/upload`, { method: 'POST', headers, body: form })
    ).json()) as { job_id: string };
    const started = performance.now();
    await fetch(`${url}/api/v1/jobs/${preview.job_id}/confirm`, { method: 'POST', headers });
    let status = '';
    const idleRss = peakRssMb(worker.pid!);
    while (!['done', 'error'].includes(status)) {
      await new Promise((r) => setTimeout(r, 200));
      status = ((await (await fetch(`${url}/api/v1/jobs/${preview.job_id}`, { headers })).json()) as { status: string })
        .status;
      if (performance.now() - started > 300_000) throw new Error('the job did not finish within 5 minutes');
    }
    const seconds = (performance.now() - started) / 1000;
    return table('Worker memory on a 1,000-page text PDF job (one worker process, concurrency 1)', [
      {
        job: `${pages} pages, ${status}`,
        'time (s)': seconds.toFixed(1),
        'pages/s': (pages / seconds).toFixed(0),
        'worker peak RSS before the job (MB)': idleRss.toFixed(0),
        'worker peak RSS (MB)': peakRssMb(worker.pid!).toFixed(0),
      },
    ]);
  } finally {
    worker.kill('SIGTERM');
    await app.close();
  }
}
