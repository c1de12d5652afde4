import { createKey, signup, type TestKey } from './support/accounts';
import { makePdf } from './support/fixtures';
import { upload } from './support/jobs';
import { createTestApp, type TestApp } from './support/test-app';
import { DataSource } from 'typeorm';

interface StreamEvent {
  event: string;
  data: { status: string; done_pages: number; total_pages: number; done_files: number; total_files: number };
}

/** Reads a Server-Sent Events response until the server closes it. */
async function readEvents(url: string, apiKey: string): Promise<{ status: number; events: StreamEvent[] }> {
  const res = await fetch(url, { headers: { 'X-API-Key': apiKey, Accept: 'text/event-stream' } });
  if (!res.body) return { status: res.status, events: [] };
  const text = await new Response(res.body).text();
  const events = text
    .split('\n\n')
    .filter((block) => block.includes('data:'))
    .map((block) => {
      const lines = block.split('\n');
      const event =
        lines
          .find((l) => l.startsWith('event:'))
          ?.slice(6)
          .trim() ?? 'message';
      const data = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n');
      return { event, data: JSON.parse(data) as StreamEvent['data'] };
    });
  return { status: res.status, events };
}

describe('GET /jobs/{id}/events (Server-Sent Events)', () => {
  let t: TestApp;
  let key: TestKey;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    const user = await signup(t.http, 'events');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    await t.app.get(DataSource).query('UPDATE users SET points_balance = 100000 WHERE id = $1', [user.userId]);
  });
  afterAll(() => t.close());

  it('streams status and progress in order, ends with done, then closes', async () => {
    const pdf = await makePdf(Array.from({ length: 600 }, (_, i) => `Page ${i + 1} streams its progress.`));
    const res = await upload(t.http, key.key, [{ name: 'long.pdf', content: pdf }], { ocr_model: 'premium' });
    const jobId = res.body.job_id as string;
    const stream = readEvents(`${base}/api/v1/jobs/${jobId}/events`, key.key);
    await new Promise((r) => setTimeout(r, 300)); // the stream is open before the job starts
    await t.http.post(`/api/v1/jobs/${jobId}/confirm`).set('X-API-Key', key.key).expect(200);
    const { status, events } = await stream;

    expect(status).toBe(200);
    expect(events[0]).toMatchObject({ event: 'status', data: { status: 'pending' } });
    const last = events[events.length - 1];
    expect(last).toMatchObject({ event: 'status', data: { status: 'done', done_pages: 600, total_pages: 600 } });
    const statuses = events.filter((e) => e.event === 'status').map((e) => e.data.status);
    expect(statuses).toEqual(['pending', 'queued', 'processing', 'done']);
    const progress = events.filter((e) => e.event === 'progress').map((e) => e.data.done_pages);
    expect(progress.length).toBeGreaterThan(0);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress); // in order
    expect(progress.every((p) => p >= 0 && p <= 600)).toBe(true);
  }, 60_000);

  it("a finished job's stream gives its final state and closes; someone else's job is 404", async () => {
    const res = await upload(t.http, key.key, [{ name: 'short.pdf', content: await makePdf(['x']) }]);
    const jobId = res.body.job_id as string;
    await t.http.post(`/api/v1/jobs/${jobId}/cancel`).set('X-API-Key', key.key).expect(200);
    const { events } = await readEvents(`${base}/api/v1/jobs/${jobId}/events`, key.key);
    expect(events).toEqual([{ event: 'status', data: expect.objectContaining({ status: 'cancelled' }) as unknown }]);

    const other = await createKey(t.http, await signup(t.http, 'events-other'), {});
    const foreign = await fetch(`${base}/api/v1/jobs/${jobId}/events`, { headers: { 'X-API-Key': other.key } });
    expect(foreign.status).toBe(404);
  });
});
