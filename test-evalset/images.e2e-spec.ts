import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import sharp from 'sharp';
import type { StructuredResult } from '@docconv/documents';
import type { TestKey } from '../test/support/accounts';
import { binary, upload, waitForJob } from '../test/support/jobs';
import { checkStructuredResult } from '../test/support/structured-result-check';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { evalsetPath, fundedKey } from './evalset';

/**
 * Pictures through the worker: a Word document's embedded pictures and a PDF's figures are taken
 * out, linked from the Markdown where they stand, named in the figure blocks of the structured
 * result, carried in the zip download as the pictures they are, and embedded in the office files.
 */
describe('evalset pictures: taken out, linked from the Markdown, in the zip', () => {
  let t: TestApp;
  let key: TestKey;
  beforeAll(async () => {
    t = await createTestApp();
    key = await fundedKey(t, 'evalimages');
  });
  afterAll(() => t.close());

  it.each([
    ['docx/word_sample.docx', 1, /^!\[A cartoon duck holding a paper\]\(images\/image-1\.png\)$/m],
    ['pdf/picture_classification.pdf', 2, /^!\[Figure 1: This is an example image\.\]\(images\/p1-1\.jpg\)$/m],
  ])(
    '%s: %i picture(s)',
    async (relative, count, link) => {
      const name = relative.split('/').pop()!;
      const res = await upload(t.http, key.key, [{ name, content: readFileSync(evalsetPath(relative)) }]);
      expect(res.status).toBe(201);
      await t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
      const job = await waitForJob(t.http, key.key, res.body.job_id as string, ['done', 'error'], 120_000);
      expect(job.status).toBe('done');
      const zipped = await t.http
        .get(`/api/v1/jobs/${res.body.job_id}/download?format=zip`)
        .set('X-API-Key', key.key)
        .buffer(true)
        .parse(binary);
      expect(zipped.status).toBe(200);
      const zip = await JSZip.loadAsync(zipped.body as Buffer);
      const markdown = await zip.file('result.md')!.async('string');
      const result = JSON.parse(await zip.file('result.json')!.async('string')) as StructuredResult;
      expect(markdown).toMatch(link);
      expect(checkStructuredResult(markdown, result).problems).toEqual([]);
      // Every picture the Markdown links is in the zip, a real picture, named by a figure block.
      const linked = [...markdown.matchAll(/!\[[^\]]*\]\((images\/[^)]+)\)/g)].map((m) => m[1]);
      expect(linked).toHaveLength(count);
      const figures = result.blocks.filter((b) => b.type === 'figure');
      expect(figures.map((b) => b.image)).toEqual(linked);
      for (const path of linked) {
        const bytes = await zip.file(path)!.async('nodebuffer');
        const meta = await sharp(bytes).metadata();
        expect(meta.format).toBe(path.endsWith('.png') ? 'png' : 'jpeg');
        expect(meta.width).toBeGreaterThan(50);
      }
      // A PDF's figure is placed where it is drawn: on its page, in a box of its own (not estimated).
      if (relative.endsWith('.pdf')) {
        for (const figure of figures) {
          expect(figure.box_estimated).toBeUndefined();
          const [left, top, right, bottom] = figure.box!;
          expect((right - left) * (bottom - top)).toBeGreaterThan(100 * 100);
        }
        expect(figures.map((f) => f.page)).toEqual([1, 2]);
      }
      // The DOCX, PPTX and HWPX of the job embed those very pictures.
      const media = { docx: /^word\/media\//, pptx: /^ppt\/media\//, hwpx: /^BinData\// };
      for (const format of ['docx', 'pptx', 'hwpx'] as const) {
        await t.http
          .post(`/api/v1/jobs/${res.body.job_id}/convert`)
          .set('X-API-Key', key.key)
          .send({ format })
          .expect(200);
        const file = await t.http
          .get(`/api/v1/jobs/${res.body.job_id}/download?format=${format}`)
          .set('X-API-Key', key.key)
          .buffer(true)
          .parse(binary)
          .expect(200);
        const office = await JSZip.loadAsync(file.body as Buffer);
        const pictures = Object.keys(office.files).filter(
          (path) => media[format].test(path) && !office.files[path].dir,
        );
        const sizes = await Promise.all(
          pictures.map(async (path) => (await office.file(path)!.async('nodebuffer')).length),
        );
        const linkedSizes = await Promise.all(
          linked.map(async (path) => (await zip.file(path)!.async('nodebuffer')).length),
        );
        expect({ format, sizes: sizes.sort() }).toEqual({ format, sizes: linkedSizes.sort() });
      }
    },
    180_000,
  );
});
