import { readFileSync, existsSync } from 'node:fs';
import { similarity } from '../tools/eval/metrics';
import type { TestKey } from '../test/support/accounts';
import { upload, waitForJob } from '../test/support/jobs';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { evalsetPath, fundedKey, readManifest } from './evalset';

/** Inputs read by OCR: they run once per available engine and model. */
const OCR_INPUTS = new Set(['pdf/ocr_test_scanned.pdf']);
const needsOcr = (path: string) => path.startsWith('image/') || OCR_INPUTS.has(path);

/** OCR of a photographed page is judged more leniently than a file with its own text; `npm run eval` measures both closely. */
const MIN_SIMILARITY: Record<string, number> = { image: 0.6 };
const DEFAULT_MIN_SIMILARITY = 0.85;

describe('evalset through the running worker: upload → confirm → done → download holds the text', () => {
  let t: TestApp;
  let key: TestKey;
  beforeAll(async () => {
    t = await createTestApp();
    key = await fundedKey(t, 'evalworker');
  });
  afterAll(() => t.close());

  const documents = readManifest().filter((r) => r.role === 'input' && !['audio', 'video'].includes(r.format));
  const runs: [string, string, string][] = documents.flatMap((r): [string, string, string][] =>
    needsOcr(r.path)
      ? [
          [r.path, 'tesseract', 'basic'],
          [r.path, 'tesseract', 'premium'],
          [r.path, 'rapidocr', 'premium'],
        ]
      : [[r.path, 'tesseract', 'basic']],
  );

  it.each(runs)('%s (%s, %s)', async (relative, engine, model) => {
    const path = evalsetPath(relative);
    const res = await upload(t.http, key.key, [{ name: relative.split('/').pop()!, content: readFileSync(path) }], {
      ocr_model: model,
      ocr_engine: engine,
    });
    expect(res.status).toBe(201);
    expect(res.body.ocr_engine).toBe(engine);
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
