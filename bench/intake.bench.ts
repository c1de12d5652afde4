import { ApiKeysService, UsersService } from '@docconv/accounts';
import { loadConfig } from '@docconv/config';
import { statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createApiApp } from '../apps/api/src/api.factory';
import { benchEnv, median, readBytes, table, textPdf } from './support';

/**
 * Preview time of generated 1,000- and 10,000-page text PDFs: the whole upload request
 * (multipart streaming, type detection, page count, storage, quote), median of 5, against
 * the in-process API. Also the API's resident memory before and at its peak.
 */
export async function benchIntake(): Promise<string> {
  // Generated before the server starts: writing a 10,000-page PDF blocks this process for
  // seconds, long enough for the server to drop the client's idle keep-alive connection.
  const inputs = [];
  for (const pages of [1_000, 10_000]) inputs.push({ pages, path: await textPdf(pages) });
  const app = await createApiApp(loadConfig(benchEnv()));
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  try {
    const user = await app.get(UsersService).create(`bench-${randomUUID()}@example.test`, 'benchmark password');
    const { secret } = await app.get(ApiKeysService).create(user.id, { rateLimitRpm: 100_000 });
    const rows = [];
    for (const { pages, path } of inputs) {
      const bytes = readBytes(path);
      const times: number[] = [];
      let peak = 0;
      const rssBefore = process.memoryUsage().rss;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      for (let run = 0; run < 5; run++) {
        const form = new FormData();
        form.append('files', new Blob([bytes], { type: 'application/pdf' }), `text-${pages}.pdf`);
        const started = performance.now();
        const res = await fetch(`${url}/api/v1/jobs/upload`, {
          method: 'POST',
          headers: { 'X-API-Key': secret },
          body: form,
        }).catch((e: Error) => {
          throw new Error(`${url}: ${String(e.cause)}`);
        });
        const body = (await res.json()) as { total_pages?: number; detail?: string };
        times.push(performance.now() - started);
        if (res.status !== 201 || body.total_pages !== pages)
          throw new Error(`upload failed: ${res.status} ${body.detail}`);
      }
      clearInterval(sampler);
      rows.push({
        pdf: `${pages} pages (${(statSync(path).size / 1024 / 1024).toFixed(1)} MB)`,
        'preview median (ms)': median(times).toFixed(0),
        'min (ms)': Math.min(...times).toFixed(0),
        'max (ms)': Math.max(...times).toFixed(0),
        'API RSS before (MB)': (rssBefore / 1024 / 1024).toFixed(0),
        'API RSS peak (MB)': (Math.max(peak, rssBefore) / 1024 / 1024).toFixed(0),
      });
    }
    return table('Intake: upload preview of generated text PDFs (in-process API, median of 5)', rows);
  } finally {
    await app.close();
  }
}
