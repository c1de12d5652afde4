import { DataSource } from 'typeorm';
import { pdfBytes } from '../libs/documents/src/pdf/testing/pdf-bytes';
import { createKey, signup, type TestKey } from './support/accounts';
import { fetchChunks } from './support/chunks';
import { convertedJob, upload } from './support/jobs';
import { createTestApp, type TestApp } from './support/test-app';

const sentence = (i: number) => `Finding ${i} of the survey holds for every region we looked at this year.`;

/** Two pages, each with a heading and a paragraph long enough to be cut at 64 tokens. */
function survey(): Promise<Buffer> {
  return pdfBytes((doc) => {
    for (let n = 1; n <= 2; n++) {
      doc.addPage({ size: 'A4', margin: 72 });
      doc.fontSize(20).text(`Part ${n}: the regions`, 72, 100, { lineBreak: false });
      doc
        .fontSize(11)
        .text(Array.from({ length: 8 }, (_, i) => sentence(n * 10 + i)).join(' '), 72, 160, { width: 450 });
    }
  });
}

describe('chunks: GET /jobs/{id}/chunks', () => {
  let t: TestApp;
  let key: TestKey;
  let pdfJob: string;
  beforeAll(async () => {
    t = await createTestApp();
    const user = await signup(t.http, 'chunks');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    await t.app.get(DataSource).query('UPDATE users SET points_balance = 1000000 WHERE id = $1', [user.userId]);
    pdfJob = await finished('survey.pdf', await survey());
  });
  afterAll(() => t.close());

  async function finished(name: string, content: Buffer): Promise<string> {
    const { jobId, job } = await convertedJob(t.http, key.key, { name, content });
    expect(job.status).toBe('done');
    return jobId;
  }

  const get = (path: string, apiKey = key.key) => t.http.get(`/api/v1/jobs/${path}`).set('X-API-Key', apiKey);

  it('cuts a PDF by structure and by page, paged, each chunk within the limit and pointing into result.md', async () => {
    const structure = await fetchChunks(
      t.http,
      key.key,
      pdfJob,
      { strategy: 'structure', maxTokens: 64, overlapTokens: 16 },
      2,
    );
    expect(structure.problems).toEqual([]);
    expect(structure.pages).toBeGreaterThan(1);
    expect(new Set(structure.chunks.map((chunk) => chunk.heading_path.join()))).toEqual(
      new Set(['Part 1: the regions', 'Part 2: the regions']),
    );
    // The paragraphs are cut between sentences, the overlap repeating the last of the chunk before.
    const cut = structure.chunks.filter((chunk) => chunk.blocks.some((block) => block.partial));
    expect(cut.length).toBeGreaterThan(2);
    expect(structure.chunks.some((chunk) => chunk.overlap !== undefined)).toBe(true);
    for (const chunk of structure.chunks) {
      expect(chunk.file).toBe('survey.pdf');
      expect(chunk.pages).toHaveLength(1);
      for (const block of chunk.blocks) expect(block.box).toHaveLength(4);
    }

    const page = await fetchChunks(t.http, key.key, pdfJob, { strategy: 'page', maxTokens: 512, overlapTokens: 0 });
    expect(page.problems).toEqual([]);
    expect(page.chunks.map((chunk) => chunk.pages)).toEqual([[1], [2]]);
    expect(page.chunks[1].text).toContain(sentence(27));
  });

  it('refuses options out of range, a cursor it did not give, a job not done, and another user’s job', async () => {
    for (const [query, field] of [
      ['max_tokens=10', 'max_tokens'],
      ['max_tokens=9000', 'max_tokens'],
      ['strategy=sentences', 'strategy'],
      ['limit=0', 'limit'],
    ]) {
      const res = await get(`${pdfJob}/chunks?${query}`);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    const overlap = await get(`${pdfJob}/chunks?max_tokens=128&overlap_tokens=100`);
    expect(overlap.status).toBe(400);
    expect(overlap.body.detail).toContain('at most half of max_tokens (64');
    const cursor = await get(`${pdfJob}/chunks?cursor=abc`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.detail).toContain('next_cursor');

    const pending = await upload(t.http, key.key, [
      { name: 'notes.md', content: Buffer.from('# Notes\n\nNot yet.\n') },
    ]);
    const notDone = await get(`${pending.body.job_id}/chunks`);
    expect(notDone.status).toBe(400);
    expect(notDone.body.code).toBe('invalid_state');

    const stranger = await createKey(t.http, await signup(t.http, 'chunks-stranger'));
    expect((await get(`${pdfJob}/chunks`, stranger.key)).status).toBe(404);
  });
});
