import { DataSource } from 'typeorm';
import type { StructuredResult } from '@docconv/documents';
import type { PageFurniture } from '@docconv/model';
import { HwpBuilder } from '../libs/documents/src/hwp/testing/hwp-builder';
import { pdfBytes } from '../libs/documents/src/pdf/testing/pdf-bytes';
import { createKey, signup, type TestKey } from './support/accounts';
import { convertedJob, upload } from './support/jobs';
import { checkStructuredResult } from './support/structured-result-check';
import { createTestApp, type TestApp } from './support/test-app';

const HEAD = 'ACME Corporation — annual report';

/** Three pages, each with a running head, a heading, a paragraph and a page number. */
function report(): Promise<Buffer> {
  return pdfBytes((doc) => {
    for (let n = 1; n <= 3; n++) {
      doc.addPage({ size: 'A4', margin: 72 });
      doc.fontSize(9).text(HEAD, 72, 30, { lineBreak: false });
      doc.fontSize(20).text(`Chapter ${n}: results of region ${n}`, 72, 100, { lineBreak: false });
      doc.fontSize(11).text(`Region ${n} grew its sales by ${n * 7} percent this year.`, 72, 300, { width: 450 });
      doc.fontSize(9).text(String(n), 290, 800, { lineBreak: false });
    }
  });
}

/** An HWP of two sections, each with the same header, the first with a footer and a page number in it. */
function hwpReport(): Buffer {
  const doc = new HwpBuilder();
  doc.paragraph([
    { header: [{ pieces: [{ text: '국가연구개발사업 보고서' }] }] },
    { footer: [{ pieces: [{ text: '과학기술정보통신부 ' }, { autoNumber: 0, value: 3 }] }] },
    { text: '첫째 구역의 본문' },
  ]);
  doc.section();
  doc.paragraph([{ header: [{ pieces: [{ text: '국가연구개발사업 보고서' }] }] }, { text: '둘째 구역의 본문' }]);
  return doc.build();
}

describe('page_furniture: drop, keep or separate the running heads, feet, page numbers, headers and footers', () => {
  let t: TestApp;
  let key: TestKey;
  beforeAll(async () => {
    t = await createTestApp();
    const user = await signup(t.http, 'furniture');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    await t.app.get(DataSource).query('UPDATE users SET points_balance = 1000000 WHERE id = $1', [user.userId]);
  });
  afterAll(() => t.close());

  /** The job's Markdown and structured result with `page_furniture` set to `mode` (or left out), and what it was quoted. */
  async function convert(name: string, content: Buffer, mode?: PageFurniture) {
    const fields: Record<string, string> = mode === undefined ? {} : { page_furniture: mode };
    const { jobId, preview, job } = await convertedJob(t.http, key.key, { name, content }, fields);
    expect(preview.page_furniture).toBe(mode ?? 'drop');
    expect(job).toMatchObject({ status: 'done', page_furniture: mode ?? 'drop' });
    const get = (path: string) => t.http.get(`/api/v1/jobs/${jobId}/${path}`).set('X-API-Key', key.key);
    const markdown = (await get('download')).text;
    const result = (await get('download?format=json')).body as StructuredResult;
    expect(checkStructuredResult(markdown, result).problems).toEqual([]);
    const furniture = result.blocks.filter((block) => block.type === 'page_header' || block.type === 'page_footer');
    return { markdown, result, furniture, points: (preview.cost as { points: number }).points };
  }

  it('a PDF: dropped by default, listed apart with their pages and boxes, or kept in the Markdown where they stand', async () => {
    const pdf = await report();
    const dropped = await convert('report.pdf', pdf);
    expect(dropped.markdown).not.toContain('ACME');
    expect(dropped.furniture).toEqual([]);

    const separate = await convert('report.pdf', pdf, 'separate');
    expect(separate.markdown).toBe(dropped.markdown);
    expect(separate.furniture.map((block) => [block.type, block.text, block.page, block.markdown])).toEqual([
      ['page_header', HEAD, 1, null],
      ['page_footer', '1', 1, null],
      ['page_header', HEAD, 2, null],
      ['page_footer', '2', 2, null],
      ['page_header', HEAD, 3, null],
      ['page_footer', '3', 3, null],
    ]);
    for (const block of separate.furniture) expect(block.box).toHaveLength(4);

    const kept = await convert('report.pdf', pdf, 'keep');
    const points = Array.from(kept.markdown);
    // Each page's head before its heading, its number after its paragraph, each block spanning its text.
    expect(kept.markdown).toMatch(
      new RegExp(`^${HEAD}\\n\\n# Chapter 1[^]*Region 1[^]*\\n\\n1\\n\\n${HEAD}\\n\\n# Chapter 2[^]*\\n\\n3\\n$`),
    );
    expect(kept.furniture.map((block) => [block.type, block.page, points.slice(...block.markdown!).join('')])).toEqual([
      ['page_header', 1, HEAD],
      ['page_footer', 1, '1'],
      ['page_header', 2, HEAD],
      ['page_footer', 2, '2'],
      ['page_header', 3, HEAD],
      ['page_footer', 3, '3'],
    ]);
    expect(new Set([dropped.points, separate.points, kept.points]).size).toBe(1); // priced the same
  });

  it('an HWP: its header and footer (without the page number) dropped, listed apart, or kept at the start and end', async () => {
    const hwp = hwpReport();
    const dropped = await convert('보고서.hwp', hwp, 'drop');
    expect(dropped.markdown).toBe('첫째 구역의 본문\n\n---\n\n둘째 구역의 본문\n');
    expect(dropped.furniture).toEqual([]);

    const separate = await convert('보고서.hwp', hwp, 'separate');
    expect(separate.markdown).toBe(dropped.markdown);
    expect(separate.furniture.map((block) => [block.type, block.text, block.markdown])).toEqual([
      ['page_header', '국가연구개발사업 보고서', null],
      ['page_footer', '과학기술정보통신부', null],
    ]);

    const kept = await convert('보고서.hwp', hwp, 'keep');
    expect(kept.markdown).toBe(
      '국가연구개발사업 보고서\n\n첫째 구역의 본문\n\n---\n\n둘째 구역의 본문\n\n과학기술정보통신부\n',
    );
    expect(kept.furniture.map((block) => [block.type, block.markdown])).toEqual([
      ['page_header', [0, 12]],
      ['page_footer', [Array.from(kept.markdown).length - 10, Array.from(kept.markdown).length - 1]],
    ]);
  });

  it('refuses a value it does not know, naming the field', async () => {
    const res = await upload(t.http, key.key, [{ name: 'report.pdf', content: await report() }], {
      page_furniture: 'hide',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'page_furniture', message: 'must be one of drop, keep, separate' }]);
  });
});
