import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hygiene } from '../tools/eval/hygiene';
import { nid, similarity, wordSpacing } from '../tools/eval/metrics';
import type { TestKey } from '../test/support/accounts';
import { upload, waitForJob } from '../test/support/jobs';
import { privateStack, waitForCapabilities } from '../test/support/private-stack';
import { acceptedDocuments, evalsetPath, fundedKey } from './evalset';

/** The engines' Python that scripts/setup.sh installs: EasyOCR with its English weights. */
const PYTHON = join(__dirname, '..', '.venv-engines', 'bin', 'python');

/** The evalset's inputs read by OCR whose text is Korean; the rest are in Latin script. */
const KOREAN = new Set(['image/noori-1page.jpg']);
const OCR_INPUTS = acceptedDocuments()
  .map((r) => r.path)
  .filter((path) => path.startsWith('image/') || path === 'pdf/ocr_test_scanned.pdf');

/**
 * Mean text similarity of EasyOCR's readings of the Latin-script items, held just under the
 * figure measured when EasyOCR became the default engine, so that a regression fails.
 */
const EASYOCR_SIMILARITY_FLOOR = 0.74;

/** Word-spacing F1 of the Korean page read with the default engine: the floor issue 42 sets. */
const KOREAN_SPACING_FLOOR = 0.95;

/**
 * How far EasyOCR premium's mean similarity and reading order over the Latin-script items may
 * fall below Tesseract premium's on the same items, read through the same worker (issue 42).
 */
const BEHIND_TESSERACT = 0.02;

describe('evalset OCR items with the default engine (EasyOCR, where its weights cover the language)', () => {
  const { stack, start } = privateStack('evaldefault');
  let key: TestKey;
  const similarities: number[] = [];
  /** Each Latin-script item's reading by EasyOCR premium (the default) and by Tesseract premium. */
  const latin: { path: string; easyocr: string; tesseract: string }[] = [];

  beforeAll(async () => {
    expect(existsSync(PYTHON)).toBe(true); // scripts/setup.sh creates it
    stack.env.ENGINES_PYTHON = PYTHON;
    await start();
    await waitForCapabilities(stack, (c) => c.default_ocr_engine === 'easyocr', 120_000);
    key = await fundedKey(stack.t, 'evaldefault');
  }, 300_000);

  /** The Markdown of one evalset item read through the worker with `fields`. */
  async function read(relative: string, fields: Record<string, string>): Promise<string> {
    const res = await upload(
      stack.t.http,
      key.key,
      [{ name: relative.split('/').pop()!, content: readFileSync(evalsetPath(relative)) }],
      fields,
    );
    expect(res.status).toBe(201);
    await stack.t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    const job = await waitForJob(stack.t.http, key.key, res.body.job_id, ['done', 'error'], 600_000);
    expect({ status: job.status, error: job.error_log }).toEqual({ status: 'done', error: null });
    return (await stack.t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set('X-API-Key', key.key)).text;
  }

  it.each(OCR_INPUTS)(
    '%s reaches done through the running worker without naming an engine',
    async (relative) => {
      const path = evalsetPath(relative);
      const res = await upload(stack.t.http, key.key, [
        { name: relative.split('/').pop()!, content: readFileSync(path) },
      ]);
      expect(res.status).toBe(201);
      expect(res.body.ocr_engine).toBe('easyocr');
      await stack.t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
      const job = await waitForJob(stack.t.http, key.key, res.body.job_id, ['done', 'error'], 600_000);
      expect({ status: job.status, error: job.error_log }).toEqual({ status: 'done', error: null });
      const markdown = (await stack.t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set('X-API-Key', key.key))
        .text;
      const found = hygiene(markdown).counts;
      expect([found.controlCharacters, found.replacementCharacters, found.literalEmphasis]).toEqual([0, 0, 0]);

      const pages = (
        await stack.t.http.get(`/api/v1/jobs/${res.body.job_id}/pages`).set('X-API-Key', key.key).expect(200)
      ).body.pages as { engine?: string; notes?: string[] }[];
      expect(pages.every((p) => p.engine === 'easyocr')).toBe(true);
      const notes = pages.flatMap((p) => p.notes ?? []);
      if (KOREAN.has(relative)) {
        // No Korean weights ship for EasyOCR: Tesseract reads the Korean lines, and the page says so.
        expect(notes).toContain('Korean text read by tesseract (kor): EasyOCR has no Korean weights on this worker');
        // Issue 42: the Korean path of the default engine keeps word-spacing F1 at 0.95 or more.
        const spacing = wordSpacing(markdown, readFileSync(path.replace(/\.[^.]+$/, '.ref.txt'), 'utf8'));
        process.stdout.write(`${relative}: Korean word-spacing F1 ${spacing?.f1.toFixed(3)}\n`);
        expect(spacing?.f1).toBeGreaterThanOrEqual(KOREAN_SPACING_FLOOR);
        return;
      }
      const base = path.replace(/\.[^.]+$/, '');
      const reference = ['.ref.txt', '.ref.md'].map((s) => base + s).find((p) => existsSync(p));
      if (reference) {
        const score = similarity(markdown, readFileSync(reference, 'utf8'));
        process.stdout.write(`${relative}: EasyOCR similarity ${score.toFixed(3)}\n`);
        similarities.push(score);
        const tesseract = await read(relative, { ocr_engine: 'tesseract', ocr_model: 'premium' });
        latin.push({ path: reference, easyocr: markdown, tesseract });
      }
    },
    660_000,
  );

  it('holds the mean similarity of its Latin-script readings', () => {
    expect(similarities.length).toBeGreaterThan(0);
    const mean = similarities.reduce((a, b) => a + b, 0) / similarities.length;
    process.stdout.write(`EasyOCR mean similarity over ${similarities.length} items: ${mean.toFixed(3)}\n`);
    expect(mean).toBeGreaterThanOrEqual(EASYOCR_SIMILARITY_FLOOR);
  });

  it('reads the Latin-script items within 0.02 of Tesseract premium, in similarity and in reading order', () => {
    expect(latin.length).toBeGreaterThan(0);
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    for (const [name, metric] of [
      ['similarity', similarity],
      ['reading order', nid],
    ] as const) {
      const easy = mean(latin.map((item) => metric(item.easyocr, readFileSync(item.path, 'utf8'))));
      const tess = mean(latin.map((item) => metric(item.tesseract, readFileSync(item.path, 'utf8'))));
      process.stdout.write(`${name}: EasyOCR premium ${easy.toFixed(3)}, Tesseract premium ${tess.toFixed(3)}\n`);
      expect(easy).toBeGreaterThanOrEqual(tess - BEHIND_TESSERACT);
    }
  });
});
