import JSZip from 'jszip';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import type { StructuredResult } from '@docconv/documents';
import { pdfBytes } from '../libs/documents/src/pdf/testing/pdf-bytes';
import { createKey, signup, type TestKey } from './support/accounts';
import { makeDocx } from './support/fixtures';
import { binary, convertedJob, upload } from './support/jobs';
import { checkStructuredResult } from './support/structured-result-check';
import { createTestApp, type TestApp } from './support/test-app';

/** Three pages, each with a heading, a paragraph at a known place, a running head and a page number. */
function report(): Promise<Buffer> {
  return pdfBytes((doc) => {
    for (let n = 1; n <= 3; n++) {
      doc.addPage({ size: 'A4', margin: 72 });
      doc.fontSize(9).text('ACME Corporation — annual report', 72, 30, { lineBreak: false });
      doc.fontSize(20).text(`Chapter ${n}: results of region ${n}`, 72, 100, { lineBreak: false });
      doc
        .fontSize(11)
        .text(
          `Region ${n} grew its sales by ${n * 7} percent this year, the strongest figure since the company began keeping records.`,
          72,
          300,
          { width: 450 },
        );
      doc.fontSize(9).text(String(n), 290, 800, { lineBreak: false });
    }
  });
}

describe('structured results: GET /jobs/{id}/download?format=json|zip', () => {
  let t: TestApp;
  let key: TestKey;
  beforeAll(async () => {
    t = await createTestApp();
    const user = await signup(t.http, 'structured');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    await t.app.get(DataSource).query('UPDATE users SET points_balance = 1000000 WHERE id = $1', [user.userId]);
  });
  afterAll(() => t.close());

  async function finished(name: string, content: Buffer, fields: Record<string, string> = {}): Promise<string> {
    const { jobId, job } = await convertedJob(t.http, key.key, { name, content }, fields);
    expect(job.status).toBe('done');
    return jobId;
  }

  /** A finished job's download in `format`, its body as bytes. */
  const download = (jobId: string, format: string) =>
    t.http.get(`/api/v1/jobs/${jobId}/download?format=${format}`).set('X-API-Key', key.key).buffer(true).parse(binary);

  it('maps every block of a PDF into the Markdown and onto its page, where it was drawn', async () => {
    // Its running heads and page numbers listed apart (test/page-furniture.e2e-spec.ts has the other choices).
    const jobId = await finished('report.pdf', await report(), { page_furniture: 'separate' });
    const markdown = (await t.http.get(`/api/v1/jobs/${jobId}/download`).set('X-API-Key', key.key)).text;
    const res = await t.http.get(`/api/v1/jobs/${jobId}/download?format=json`).set('X-API-Key', key.key);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toContain('report.json');
    const result = res.body as StructuredResult;
    expect(checkStructuredResult(markdown, result)).toMatchObject({ problems: [], coverage: 1 });
    expect(result.pages.map((p) => [p.page, Math.round(p.width!), Math.round(p.height!), p.unit])).toEqual([
      [1, 595, 842, 'pt'],
      [2, 595, 842, 'pt'],
      [3, 595, 842, 'pt'],
    ]);
    // The second chapter's paragraph: on page 2, in the box it was drawn in (72 pt from the left, from 300 pt down).
    const paragraph = result.blocks.find((b) => b.type === 'paragraph' && b.text.startsWith('Region 2'))!;
    expect(paragraph.page).toBe(2);
    const [left, top, right, bottom] = paragraph.box!;
    expect(left).toBeCloseTo(72, -1);
    expect(top).toBeGreaterThan(290);
    expect(top).toBeLessThan(305);
    expect(right).toBeLessThanOrEqual(72 + 450 + 1);
    expect(bottom).toBeGreaterThan(top + 11); // two lines of 11-point type
    expect(bottom).toBeLessThan(340);
    // Its span in the Markdown is its text.
    const [start, end] = paragraph.markdown!;
    expect(Array.from(markdown).slice(start, end).join('')).toContain('strongest figure since the company');
    expect(result.blocks.find((b) => b.text === 'Chapter 3: results of region 3')).toMatchObject({
      type: 'heading',
      page: 3,
    });
    // The running head and page numbers the Markdown leaves out are kept as page furniture, without a span.
    expect(markdown).not.toContain('annual report');
    const furniture = result.blocks.filter((b) => b.type === 'page_header' || b.type === 'page_footer');
    expect(furniture.map((b) => [b.type, b.page, b.text, b.markdown])).toEqual([
      ['page_header', 1, 'ACME Corporation — annual report', null],
      ['page_footer', 1, '1', null],
      ['page_header', 2, 'ACME Corporation — annual report', null],
      ['page_footer', 2, '2', null],
      ['page_header', 3, 'ACME Corporation — annual report', null],
      ['page_footer', 3, '3', null],
    ]);
    // Each page has a preview to set beside its blocks, rendered once and kept.
    const preview = await t.http
      .get(`/api/v1/jobs/${jobId}/pages/2/preview`)
      .set('X-API-Key', key.key)
      .buffer(true)
      .parse(binary);
    expect(preview.status).toBe(200);
    expect(preview.headers['content-type']).toBe('image/png');
    const meta = await sharp(preview.body as Buffer).metadata();
    expect([meta.format, Math.max(meta.width, meta.height)]).toEqual(['png', 1200]);
    for (const [path, detail] of [
      ['pages/4/preview', /has 3 page\(s\); there is no page 4/],
      ['pages/0/preview', /whole number from 1/],
      ['pages/1/preview?file=2', /has 1 file\(s\); there is no file 2/],
    ] as const) {
      const refused = await t.http.get(`/api/v1/jobs/${jobId}/${path}`).set('X-API-Key', key.key);
      expect([refused.status, refused.headers['content-type']]).toEqual([400, expect.stringMatching(/problem\+json/)]);
      expect(refused.body.detail).toMatch(detail);
    }
    // In reading order: each page's head before its blocks, its number after them.
    const order = result.blocks.map((b) => `${b.page}:${b.type}`);
    expect(order.indexOf('2:page_header')).toBeGreaterThan(order.lastIndexOf('1:paragraph'));
    expect(order.indexOf('2:page_footer')).toBeLessThan(order.indexOf('3:page_header'));
  });

  it('gives a document without pages each block’s place in it, and zips the Markdown with the JSON', async () => {
    const jobId = await finished('notes.docx', await makeDocx(['First paragraph.', 'Second paragraph.']));
    const res = await download(jobId, 'zip');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain('notes.zip');
    const zip = await JSZip.loadAsync(res.body as Buffer);
    expect(Object.keys(zip.files).sort()).toEqual(['result.json', 'result.md']);
    const markdown = await zip.file('result.md')!.async('string');
    const result = JSON.parse(await zip.file('result.json')!.async('string')) as StructuredResult;
    expect(checkStructuredResult(markdown, result).problems).toEqual([]);
    expect(result.blocks.map((b) => [b.type, b.text, b.position])).toEqual([
      ['paragraph', 'First paragraph.', { paragraph: 1 }],
      ['paragraph', 'Second paragraph.', { paragraph: 2 }],
    ]);
    expect(result.files).toEqual([{ name: 'notes.docx', kind: 'docx', markdown: [0, Array.from(markdown).length] }]);
    // A document without pages has no page previews.
    const preview = await t.http.get(`/api/v1/jobs/${jobId}/pages/1/preview`).set('X-API-Key', key.key);
    expect(preview.status).toBe(400);
    expect(preview.body.detail).toMatch(/not a PDF or an image: only their pages have previews/);
  });

  it('zips the pictures the Markdown links, as the page shows them, and carries them into the DOCX', async () => {
    // A blue disc on a transparent ground: the PDF holds it with a soft mask.
    const disc = await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><circle cx="150" cy="150" r="140" fill="#1f4fb4"/></svg>',
      ),
    )
      .png()
      .toBuffer();
    const pdf = await pdfBytes((doc) => {
      doc.addPage({ size: 'A4', margin: 72 });
      doc.fontSize(12).text('The survey area, drawn from above, with its one pond.', 72, 72);
      doc.image(disc, 72, 110, { width: 300, height: 300 });
      doc.fontSize(10).text('Figure 1. The pond.', 72, 420);
    });
    const jobId = await finished('survey.pdf', pdf);
    const res = await download(jobId, 'zip');
    expect(res.status).toBe(200);
    const zip = await JSZip.loadAsync(res.body as Buffer);
    const markdown = await zip.file('result.md')!.async('string');
    const links = [...markdown.matchAll(/!\[([^\]]*)\]\((images\/[^)]+)\)/g)];
    expect(links.map((link) => link[1])).toEqual(['Figure 1. The pond.']);
    const picture = await zip.file(links[0][2])!.async('nodebuffer');
    // Composited with its mask on the page's white: blue in the middle, white in the corner (not a black silhouette).
    const { data, info } = await sharp(picture).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (fx: number, fy: number) => {
      const i = (Math.floor(info.height * fy) * info.width + Math.floor(info.width * fx)) * info.channels;
      return [data[i], data[i + 1], data[i + 2]];
    };
    expect(at(0.5, 0.5)[2]).toBeGreaterThan(150);
    expect(at(0.5, 0.5)[0]).toBeLessThan(80);
    expect(at(0.03, 0.03)).toEqual([255, 255, 255]);

    const converted = await t.http
      .post(`/api/v1/jobs/${jobId}/convert`)
      .set('X-API-Key', key.key)
      .set('Idempotency-Key', `docx-${jobId}`)
      .send({ format: 'docx' });
    expect(converted.status).toBe(200);
    const docx = await download(jobId, 'docx');
    const media = Object.keys((await JSZip.loadAsync(docx.body as Buffer)).files).filter((name) =>
      name.startsWith('word/media/'),
    );
    expect(media).toHaveLength(1);
  });

  it('refuses an unknown format with the list of formats, and a job not done yet with what to do', async () => {
    const jobId = await finished('one.docx', await makeDocx(['Only paragraph.']));
    const bad = await t.http.get(`/api/v1/jobs/${jobId}/download?format=yaml`).set('X-API-Key', key.key);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('md, json, zip, xlsx_basic');
    const pending = await upload(t.http, key.key, [{ name: 'later.docx', content: await makeDocx(['Later.']) }]);
    const early = await t.http
      .get(`/api/v1/jobs/${pending.body.job_id}/download?format=json`)
      .set('X-API-Key', key.key);
    expect(early.status).toBe(400);
    expect(early.body.detail).toMatch(/pending; its result can be downloaded once it is done/);
  });
});
