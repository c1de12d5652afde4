import { readFileSync, existsSync } from 'node:fs';
import { LedgerService } from '@docconv/billing';
import { similarity } from '../tools/eval/metrics';
import { createKey, signup, type TestKey } from '../test/support/accounts';
import { upload, waitForJob } from '../test/support/jobs';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { evalsetPath, readManifest } from './evalset';

/** Inputs whose text needs OCR of PDF pages or a transcriber: those arrive with the OCR and speech engines. */
const NEEDS_LATER_ENGINES = new Set(['pdf/ocr_test_scanned.pdf']);

/** OCR of a photographed page is judged more leniently than a file with its own text; `npm run eval` measures both closely. */
const MIN_SIMILARITY: Record<string, number> = { image: 0.6 };
const DEFAULT_MIN_SIMILARITY = 0.85;

describe('evalset through the running worker: upload → confirm → done → download holds the text', () => {
  let t: TestApp;
  let key: TestKey;
  beforeAll(async () => {
    t = await createTestApp();
    const user = await signup(t.http, 'evalworker');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    await t.app.get(LedgerService).post({
      userId: user.userId,
      type: 'grant',
      points: 10_000_000,
      description: 'evalset funds',
      idempotencyKey: `grant:${user.userId}`,
    });
  });
  afterAll(() => t.close());

  const inputs = readManifest().filter(
    (r) => r.role === 'input' && !['audio', 'video'].includes(r.format) && !NEEDS_LATER_ENGINES.has(r.path),
  );

  it.each(inputs.map((r) => [r.path]))('%s', async (relative) => {
    const path = evalsetPath(relative);
    const res = await upload(t.http, key.key, [{ name: relative.split('/').pop()!, content: readFileSync(path) }], {
      ocr_model: 'basic',
    });
    expect(res.status).toBe(201);
    await t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    const job = await waitForJob(t.http, key.key, res.body.job_id, ['done', 'error'], 120_000);
    expect({ status: job.status, error: job.error_log }).toEqual({ status: 'done', error: null });
    const markdown = (await t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set('X-API-Key', key.key)).text;

    const base = path.replace(/\.[^.]+$/, '');
    const reference = ['.ref.txt', '.ref.md'].map((s) => base + s).find((p) => existsSync(p));
    if (reference) {
      const score = similarity(markdown, readFileSync(reference, 'utf8'));
      const format = relative.split('/')[0];
      expect(score).toBeGreaterThanOrEqual(MIN_SIMILARITY[format] ?? DEFAULT_MIN_SIMILARITY);
    } else {
      expect(markdown.trim().length).toBeGreaterThan(0);
    }
  });
});
