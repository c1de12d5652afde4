import { DataSource } from 'typeorm';
import { EventStreamParser, type EventStreamMessage } from '../clients/typescript/src/events';
import { createKey, signup, type TestKey } from './support/accounts';
import { makeMixedPdf } from './support/fixtures';
import { upload, waitForJob } from './support/jobs';
import { createTestApp, type TestApp } from './support/test-app';

interface Page {
  seq: number;
  retry: number;
  file: string;
  page: number | null;
  markdown: string;
}

/** Scanned pages: read by OCR, each taking a while, so the job runs long enough to follow. */
const SCANNED = 6;

/**
 * Pages as they finish: a job's `page` events (GET /jobs/{id}/events) carry each page of its
 * result once it is final, a reconnect with Last-Event-ID resumes after the last one received,
 * and `download?partial=true` joins the pages finished so far.
 */
describe('pages as they finish: page events, Last-Event-ID, partial downloads', () => {
  let t: TestApp;
  let key: TestKey;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    url = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    const user = await signup(t.http, 'pages');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    await t.app.get(DataSource).query('UPDATE users SET points_balance = 1000000 WHERE id = $1', [user.userId]);
  });
  afterAll(() => t.close());

  /**
   * Follows the job's events until `enough` says so (then the connection is dropped) or the stream
   * ends; every event, in order.
   */
  async function follow(
    jobId: string,
    lastEventId: string | undefined,
    enough: (events: EventStreamMessage[]) => boolean = () => false,
  ): Promise<{ events: EventStreamMessage[]; ended: boolean }> {
    const abort = new AbortController();
    const response = await fetch(`${url}/api/v1/jobs/${jobId}/events`, {
      headers: {
        'X-API-Key': key.key,
        Accept: 'text/event-stream',
        ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
      },
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    const events: EventStreamMessage[] = [];
    const parser = new EventStreamParser((message) => events.push(message));
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return { events, ended: true };
      parser.push(decoder.decode(chunk.value, { stream: true }));
      if (enough(events)) {
        abort.abort();
        return { events, ended: false };
      }
    }
  }

  const pagesOf = (events: EventStreamMessage[]) =>
    events
      .filter((event) => event.event === 'page')
      .map((event) => ({ id: event.id, ...(JSON.parse(event.data) as Page) }));

  it('delivers each page of a long OCR job once as it settles, resumes after a dropped connection, and joins into the result', async () => {
    const pdf = await makeMixedPdf(
      Array.from({ length: SCANNED }, (_, i) => ({ scan: `Scanned page ${i + 1} of the survey` })),
    );
    const res = await upload(t.http, key.key, [{ name: 'survey.pdf', content: pdf }], { ocr_model: 'basic' });
    expect(res.status).toBe(201);
    const jobId = res.body.job_id as string;
    await t.http.post(`/api/v1/jobs/${jobId}/confirm`).set('X-API-Key', key.key).expect(200);

    // Dropped once two pages have come.
    const first = await follow(jobId, undefined, (events) => pagesOf(events).length >= 2);
    expect(first.ended).toBe(false);
    const early = pagesOf(first.events);
    expect(early.map((page) => page.seq)).toEqual([1, 2]);
    // The first pages came while the job was still reading the others.
    const reading = await t.http.get(`/api/v1/jobs/${jobId}`).set('X-API-Key', key.key);
    expect(reading.body.status).toBe('processing');
    expect(reading.body.done_pages).toBeLessThan(SCANNED);

    // The pages finished so far, joined, with how many they are.
    const partial = await t.http.get(`/api/v1/jobs/${jobId}/download?partial=true`).set('X-API-Key', key.key);
    expect(partial.status).toBe(200);
    const delivered = Number(partial.headers['x-delivered-pages']);
    expect(delivered).toBeGreaterThanOrEqual(2);
    expect(partial.text.startsWith(early.map((page) => page.markdown).join(''))).toBe(true);

    // Reconnected after the last page received: the rest, each once, then the end.
    const rest = await follow(jobId, early[early.length - 1].id);
    expect(rest.ended).toBe(true);
    const later = pagesOf(rest.events);
    const all = [...early, ...later];
    expect(all.map((page) => page.seq)).toEqual(Array.from({ length: SCANNED }, (_, i) => i + 1));
    expect(all.map((page) => page.page)).toEqual(Array.from({ length: SCANNED }, (_, i) => i + 1));
    expect(all.every((page) => page.file === 'survey.pdf' && page.id === `${page.retry}.${page.seq}`)).toBe(true);
    expect(
      rest.events.filter((event) => event.event === 'status').map((event) => JSON.parse(event.data).status),
    ).toContain('done');

    // Joined in order, the pages are the result, byte for byte.
    const markdown = (await t.http.get(`/api/v1/jobs/${jobId}/download`).set('X-API-Key', key.key)).text;
    expect(all.map((page) => page.markdown).join('')).toBe(markdown);
    expect(markdown).toContain('Scanned page 6 of the survey');
    const complete = await t.http.get(`/api/v1/jobs/${jobId}/download?partial=true`).set('X-API-Key', key.key);
    expect({ text: complete.text, complete: complete.headers['x-result-complete'] }).toEqual({
      text: markdown,
      complete: 'true',
    });

    // A new connection without Last-Event-ID gets every page again after the current state.
    const again = await follow(jobId, undefined);
    expect(again.events[0].event).toBe('status');
    expect(pagesOf(again.events).map((page) => page.seq)).toEqual(all.map((page) => page.seq));
  }, 180_000);

  it('a job cancelled while it is read keeps the pages delivered before, charged, and its result is them', async () => {
    const pdf = await makeMixedPdf(
      Array.from({ length: SCANNED }, (_, i) => ({ scan: `Scanned page ${i + 1} of the memo` })),
    );
    const res = await upload(t.http, key.key, [{ name: 'memo.pdf', content: pdf }], { ocr_model: 'basic' });
    const jobId = res.body.job_id as string;
    await t.http.post(`/api/v1/jobs/${jobId}/confirm`).set('X-API-Key', key.key).expect(200);
    const { events } = await follow(jobId, undefined, (all) => pagesOf(all).length >= 1);
    expect(pagesOf(events).map((page) => page.seq)).toEqual([1]);
    const cancel = await t.http.post(`/api/v1/jobs/${jobId}/cancel`).set('X-API-Key', key.key);
    expect([200, 202]).toContain(cancel.status);
    const job = await waitForJob(t.http, key.key, jobId);
    expect(job.status).toBe('cancelled');

    const { events: after } = await follow(jobId, undefined);
    const pages = pagesOf(after);
    expect(pages.length).toBeGreaterThanOrEqual(1);
    expect(pages.length).toBeLessThan(SCANNED);
    expect(pages.map((page) => page.seq)).toEqual(pages.map((_, i) => i + 1));
    // The pages delivered are those charged, and the result the job keeps is them, joined.
    expect(job.delivered_pages).toBe(pages.length);
    const kept = await t.http.get(`/api/v1/jobs/${jobId}/download?partial=true`).set('X-API-Key', key.key);
    expect(kept.text).toBe(pages.map((page) => page.markdown).join(''));
    expect(kept.headers['x-result-complete']).toBe('false');
  }, 180_000);

  it('a job of several files delivers each file as it is read; joined, they are the result', async () => {
    const res = await upload(t.http, key.key, [
      { name: 'a.md', content: '# First\n\nThe first file.\n' },
      { name: 'b.md', content: '# Second\n\nThe second file.\n' },
    ]);
    const jobId = res.body.job_id as string;
    await t.http.post(`/api/v1/jobs/${jobId}/confirm`).set('X-API-Key', key.key).expect(200);
    expect((await waitForJob(t.http, key.key, jobId)).status).toBe('done');
    const { events } = await follow(jobId, undefined);
    const pages = pagesOf(events);
    expect(pages.map((page) => [page.seq, page.file, page.page])).toEqual([
      [1, 'a.md', null],
      [2, 'b.md', null],
    ]);
    const markdown = (await t.http.get(`/api/v1/jobs/${jobId}/download`).set('X-API-Key', key.key)).text;
    expect(pages.map((page) => page.markdown).join('')).toBe(markdown);
  });
});
