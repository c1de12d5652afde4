import type TestAgent from 'supertest/lib/agent';
import type { Response } from 'supertest';

export interface UploadFile {
  name: string;
  content: Buffer | string;
}

export function upload(
  http: TestAgent,
  apiKey: string,
  files: UploadFile[],
  fields: Record<string, string> = {},
): Promise<Response> {
  let req = http.post('/api/v1/jobs/upload').set('X-API-Key', apiKey);
  for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
  for (const file of files) req = req.attach('files', Buffer.from(file.content), file.name);
  return req.then((r) => r);
}

/**
 * Uploads one file (with the upload form's `fields`), confirms it and waits for it to end: its
 * upload preview and its last record, which a test checks is `done`.
 */
export async function convertedJob(
  http: TestAgent,
  apiKey: string,
  file: UploadFile,
  fields: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<{ jobId: string; preview: Record<string, unknown>; job: Record<string, unknown> }> {
  const res = await upload(http, apiKey, [file], fields);
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.text}`);
  const jobId = res.body.job_id as string;
  const confirmed = await http.post(`/api/v1/jobs/${jobId}/confirm`).set('X-API-Key', apiKey);
  if (confirmed.status !== 200) throw new Error(`confirm answered ${confirmed.status}: ${confirmed.text}`);
  const job = await waitForJob(http, apiKey, jobId, ['done', 'error', 'cancelled'], timeoutMs);
  return { jobId, preview: res.body as Record<string, unknown>, job };
}

/** Polls the job until it leaves the working states (or `timeoutMs` passes). */
export async function waitForJob(
  http: TestAgent,
  apiKey: string,
  jobId: string,
  until: string[] = ['done', 'error', 'cancelled'],
  timeoutMs = 60_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  // Asked often at first, then less (a long job would spend a key's rate limit), as a client should.
  let interval = 150;
  for (;;) {
    const res = await http.get(`/api/v1/jobs/${jobId}`).set('X-API-Key', apiKey);
    if (res.status === 429 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, Number(res.headers['retry-after'] ?? 1) * 1000));
      continue;
    }
    if (res.status !== 200) throw new Error(`GET job answered ${res.status}: ${res.text}`);
    if (until.includes(res.body.status as string)) return res.body as Record<string, unknown>;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${res.body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, interval));
    interval = Math.min(1_000, interval * 1.5);
  }
}

/** A supertest parser that keeps a response body as raw bytes (office files, images). */
export function binary(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}

/** The path and query of a link, absolute or not: what a client bound to the in-process server requests. */
export function pathOf(link: string): string {
  const url = new URL(link, 'http://localhost');
  return `${url.pathname}${url.search}`;
}
