import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { LedgerService } from '@docconv/billing';
import type { TestKey } from '../../test/support/accounts';
import { upload, waitForJob } from '../../test/support/jobs';
import type { TestApp } from '../../test/support/test-app';

/**
 * Makes the in-process API listen on a port of its own and returns its base URL. Clients that
 * are not supertest (fetch, many concurrent requests) need a real address, and supertest
 * then uses it too instead of opening a server per request.
 */
export async function serve(t: TestApp): Promise<string> {
  const server = t.app.getHttpServer() as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Credits `points` through the ledger, as an operator's grant, so the user's transactions add up to the balance. */
export async function grant(t: TestApp, userId: string, points: number): Promise<void> {
  await t.app.get(LedgerService).post({
    userId,
    type: 'grant',
    points,
    description: 'Reliability suite funding',
    idempotencyKey: `grant:${randomUUID()}`,
  });
}

/** Uploads a small Markdown file, confirms it and waits until the worker has finished it; returns the job id. */
export async function convertMarkdown(t: TestApp, key: TestKey, timeoutMs = 60_000): Promise<string> {
  const preview = await upload(t.http, key.key, [{ name: 'note.md', content: '# A note\n\nWith a line.\n' }]);
  if (preview.status !== 201) throw new Error(`upload answered ${preview.status}: ${preview.text}`);
  const jobId = (preview.body as { job_id: string }).job_id;
  const confirm = await t.http.post(`/api/v1/jobs/${jobId}/confirm`).set('X-API-Key', key.key);
  if (confirm.status !== 200) throw new Error(`confirm answered ${confirm.status}: ${confirm.text}`);
  const job = await waitForJob(t.http, key.key, jobId, ['done', 'error', 'cancelled'], timeoutMs);
  if (job.status !== 'done') throw new Error(`job ended ${String(job.status)}: ${String(job.error_log)}`);
  return jobId;
}
