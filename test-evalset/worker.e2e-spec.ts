import { existsSync, readFileSync } from 'node:fs';
import { similarity } from '../tools/eval/metrics';
import { parseChecks, parseTests, runChecks, runTests } from '../tools/eval/olmocr';
import type { TestKey } from '../test/support/accounts';
import { upload, waitForJob } from '../test/support/jobs';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { acceptedDocuments, evalsetPath, formatOf, fundedKey } from './evalset';

/** Inputs read by OCR: they run once per available engine and model. */
const OCR_INPUTS = new Set(['pdf/ocr_test_scanned.pdf']);
const needsOcr = (path: string) => path.startsWith('image/') || OCR_INPUTS.has(path);

/**
 * Floors under each format's mean scores over its dev-set items, run through the worker: text
 * similarity against the item's reference text, and the share of olmOCR-bench unit tests and
 * string checks passed. They sit just under the figures measured when they were set, so a
 * regression in any format fails the suite; `npm run eval` measures the same items closely.
 */
const FLOORS: Record<string, { similarity?: number; tests?: number; checks?: number }> = {
  pdf: { similarity: 0.92, tests: 0.36 },
  docx: { similarity: 0.935 },
  pptx: { similarity: 0.935 },
  xlsx: { similarity: 0.9 },
  hwp: { similarity: 0.945 },
  hwpx: { similarity: 0.955 },
  image: { similarity: 0.91 },
};

type MetricName = 'similarity' | 'tests' | 'checks';

/** One run's scores, kept for the per-format means at the end. */
interface Scored {
  run: string;
  format: string;
  metrics: Partial<Record<MetricName, number>>;
}

/** Scores the Markdown against every reference the input has: text similarity, olmOCR tests, string checks. */
function score(path: string, markdown: string): Partial<Record<MetricName, number>> {
  const base = path.replace(/\.[^.]+$/, '');
  const read = (suffix: string) => (existsSync(base + suffix) ? readFileSync(base + suffix, 'utf8') : undefined);
  const metrics: Partial<Record<MetricName, number>> = {};
  const text = read('.ref.txt') ?? read('.ref.md');
  if (text !== undefined) metrics.similarity = similarity(markdown, text);
  const tests = read('.tests.jsonl');
  if (tests !== undefined) metrics.tests = runTests(parseTests(tests).tests, markdown).passRate.rate;
  const checks = read('.checks.json');
  if (checks !== undefined) metrics.checks = runChecks(parseChecks(JSON.parse(checks)), markdown).passRate.rate;
  return metrics;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('evalset through the running worker: upload → confirm → done → download holds the text', () => {
  let t: TestApp;
  let key: TestKey;
  const scored: Scored[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    key = await fundedKey(t, 'evalworker');
  });
  afterAll(() => t.close());

  const runs: [string, string, string][] = acceptedDocuments().flatMap((r): [string, string, string][] =>
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
    const metrics = score(path, markdown);
    expect(Object.keys(metrics).length).toBeGreaterThan(0);
    scored.push({ run: `${relative} (${engine}, ${model})`, format: formatOf(relative), metrics });
  });

  it('each format holds its floors on the mean of its items', () => {
    expect(scored.length).toBe(runs.length);
    const lines: string[] = [];
    const below: string[] = [];
    for (const format of [...new Set(scored.map((s) => s.format))].sort()) {
      const items = scored.filter((s) => s.format === format);
      for (const metric of ['similarity', 'tests', 'checks'] as const) {
        const values = items.map((s) => s.metrics[metric]).filter((v): v is number => v !== undefined);
        if (values.length === 0) continue;
        const value = mean(values);
        const floor = FLOORS[format]?.[metric];
        const worst = items
          .filter((s) => s.metrics[metric] !== undefined)
          .sort((a, b) => a.metrics[metric]! - b.metrics[metric]!)[0];
        lines.push(
          `  ${format.padEnd(6)} ${metric.padEnd(10)} ${values.length.toString().padStart(3)} items  mean ${value.toFixed(3)}  ` +
            `floor ${floor === undefined ? ' none' : floor.toFixed(3)}  lowest ${worst.metrics[metric]!.toFixed(3)} ${worst.run}`,
        );
        if (floor === undefined) below.push(`${format} ${metric} has no floor`);
        else if (value < floor) below.push(`${format} ${metric} mean ${value.toFixed(3)} < floor ${floor}`);
      }
    }
    process.stdout.write(`\nEvalset through the worker, per format\n${lines.join('\n')}\n`);
    expect(below).toEqual([]);
  });
});
