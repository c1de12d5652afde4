import { createKey, signup, type TestKey } from './support/accounts';
import { makeMixedPdf, makeTextPng, makeTiff } from './support/fixtures';
import { upload, waitForJob } from './support/jobs';
import type { CapabilitiesBody } from './support/private-stack';
import { createTestApp, type TestApp } from './support/test-app';
import { DataSource } from 'typeorm';

describe('OCR through the running worker', () => {
  let t: TestApp;
  let key: TestKey;
  let capabilities: CapabilitiesBody;

  beforeAll(async () => {
    t = await createTestApp();
    const user = await signup(t.http, 'ocr');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    await t.app.get(DataSource).query('UPDATE users SET points_balance = 1000000 WHERE id = $1', [user.userId]);
    capabilities = (await t.http.get('/api/v1/capabilities').expect(200)).body as CapabilitiesBody;
  });
  afterAll(() => t.close());

  /** Uploads, confirms and waits for `done`; returns the Markdown and the page report. */
  async function convert(files: { name: string; content: Buffer }[], fields: Record<string, string>) {
    const res = await upload(t.http, key.key, files, fields);
    expect(res.status).toBe(201);
    await t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    const job = await waitForJob(t.http, key.key, res.body.job_id as string, ['done', 'error'], 120_000);
    expect({ status: job.status, error: job.error_log }).toEqual({ status: 'done', error: null });
    const markdown = (await t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set('X-API-Key', key.key)).text;
    const pages = (await t.http.get(`/api/v1/jobs/${res.body.job_id}/pages`).set('X-API-Key', key.key).expect(200))
      .body as { pages: { file: string; page: number; source: string; engine?: string; confidence?: number }[] };
    return { preview: res.body as { ocr_engine: string }, markdown, pages: pages.pages };
  }

  it('publishes what the workers can run, without authentication', () => {
    expect(capabilities.ocr_engines).toContain('tesseract');
    expect(capabilities.ocr_engines).not.toContain('easyocr'); // the suite's shared worker runs without ENGINES_PYTHON
    expect(capabilities.ocr_languages).toEqual(['eng', 'kor']);
    expect(capabilities.transcription.available).toBe(false);
    expect(capabilities.refinement.available).toBe(false);
    expect(capabilities.limits).toMatchObject({ dpi_min: 72, dpi_max: 600 });
    expect(capabilities.limits.max_upload_bytes).toBeGreaterThan(0);
    expect(capabilities.reported_at).not.toBeNull(); // the suite's worker reported at boot
  });

  it('refuses easyocr asked for by name, and names the engine that will run when none is asked for', async () => {
    const png = await makeTextPng('engine choice');
    const easy = await upload(t.http, key.key, [{ name: 'a.png', content: png }], { ocr_engine: 'easyocr' });
    expect(easy.status).toBe(400);
    expect(easy.body.code).toBe('engine_unavailable');
    expect(easy.body.available_engines).toEqual(capabilities.ocr_engines);
    expect(easy.body.detail).toMatch(/easyocr engine is not available.*Available: tesseract/);
    const omitted = await upload(t.http, key.key, [{ name: 'a.png', content: png }]);
    expect(omitted.status).toBe(201);
    expect(omitted.body.ocr_engine).toBe(capabilities.default_ocr_engine);
    expect(omitted.body.ocr_engine).toBe('tesseract');
  });

  it('OCRs only the scanned page of a mixed PDF', async () => {
    const pdf = await makeMixedPdf([
      { text: 'Chapter one is typed text with a real text layer.' },
      { scan: 'Scanned receipt number 80417' },
      { text: 'Chapter three is typed text again.' },
    ]);
    const { markdown, pages } = await convert([{ name: 'mixed.pdf', content: pdf }], { ocr_model: 'basic' });
    expect(pages.map((p) => [p.page, p.source])).toEqual([
      [1, 'text'],
      [2, 'ocr'],
      [3, 'text'],
    ]);
    expect(pages[1]).toMatchObject({ engine: 'tesseract', file: 'mixed.pdf' });
    expect(pages[1].confidence).toBeGreaterThan(50);
    expect(markdown).toMatch(/Scanned receipt number 80417/);
    expect(markdown.indexOf('Chapter one')).toBeLessThan(markdown.indexOf('80417'));
    expect(markdown.indexOf('80417')).toBeLessThan(markdown.indexOf('Chapter three'));
  });

  it('reads every frame of a multi-page TIFF', async () => {
    const tiff = await makeTiff(['First frame says alpha', 'Second frame says omega']);
    const { markdown, pages } = await convert([{ name: 'frames.tif', content: tiff }], { ocr_model: 'premium' });
    expect(pages.map((p) => [p.page, p.source])).toEqual([
      [1, 'ocr'],
      [2, 'ocr'],
    ]);
    expect(markdown).toMatch(/First frame says alpha/);
    expect(markdown).toMatch(/Second frame says omega/);
  });

  it('turns a photo upright by its EXIF orientation before reading it', async () => {
    const sharp = (await import('sharp')).default;
    // Stored sideways (rotated a quarter turn anticlockwise), tagged "rotate 90° clockwise to view".
    const sideways = await sharp(await makeTextPng('Upright receipt 7719'))
      .rotate(-90)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const { markdown } = await convert([{ name: 'photo.jpg', content: sideways }], { ocr_model: 'basic' });
    expect(markdown).toMatch(/Upright receipt 7719/);
  });

  const runs: [string, string][] = [
    ['tesseract', 'basic'],
    ['tesseract', 'premium'],
    ['rapidocr', 'premium'],
  ];
  it.each(runs)('reads a PNG with %s (%s)', async (engine, model) => {
    expect(capabilities.ocr_engines).toContain(engine); // every engine this project installs must be offered
    const png = await makeTextPng('Delivery note 5521 for Seoul');
    const { preview, markdown, pages } = await convert([{ name: 'note.png', content: png }], {
      ocr_engine: engine,
      ocr_model: model,
    });
    expect(preview.ocr_engine).toBe(engine);
    expect(pages[0]).toMatchObject({ source: 'ocr', engine });
    expect(markdown).toMatch(/Delivery note 5521 for Seoul/i);
  });
});
