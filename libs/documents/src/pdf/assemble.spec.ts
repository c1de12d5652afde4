import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assemblePdf, extractPdf, readPdfPages } from './extract-pdf';
import { pdfBytes } from './testing/pdf-bytes';

/**
 * A report of `pages` pages with what the layout decides over the whole document: a running
 * head and a page number on every page (dropped only because they repeat), section headings in
 * larger type, and a paragraph that runs from one page onto the next.
 */
function reportPdf(pages: number): Promise<Buffer> {
  return pdfBytes((doc) => {
    for (let n = 1; n <= pages; n++) {
      // Margins small enough that the head and the page number stay on their page.
      doc.addPage({ size: 'A4', margins: { top: 20, bottom: 20, left: 72, right: 72 } });
      doc.fontSize(9).text('Annual report of the harbour authority', 72, 30);
      doc.fontSize(9).text(String(n), 290, 800);
      if (n % 4 === 1) doc.fontSize(20).text(`Section ${(n + 3) / 4}: harbour works`, 72, 90);
      doc
        .fontSize(11)
        .text(
          `Page ${n} reports the dredging of berth ${n}, the tonnage landed there and the repairs ` +
            `made to its quay wall over the year, which continues`,
          72,
          140,
        );
      doc.fontSize(11).text(`on page ${n + 1} with the works planned for the next year.`, 72, 770);
    }
  });
}

describe('a PDF read in page ranges and assembled', () => {
  let folder: string;
  let path: string;
  const PAGES = 12;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'assemble-'));
    path = join(folder, 'report.pdf');
    await writeFile(path, await reportPdf(PAGES));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('gives exactly the Markdown of the file read whole, whatever the ranges', async () => {
    const whole = await extractPdf(path, 'report.pdf', () => undefined);
    expect(whole.markdown).not.toContain('Annual report of the harbour authority'); // running head dropped
    expect(whole.markdown).toMatch(/^# Section 1: harbour works$/m);
    for (const cuts of [
      [1, 5, 9],
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
      [1, 12],
    ]) {
      const ranges = cuts.map((first, i) => ({ first, last: (cuts[i + 1] ?? PAGES + 1) - 1 }));
      // Read in any order (as workers finish them), assembled in page order.
      const parts = await Promise.all(ranges.map((range) => readPdfPages(path, 'report.pdf', range, () => undefined)));
      const assembled = assemblePdf(JSON.parse(JSON.stringify(parts)));
      expect(assembled.markdown).toBe(whole.markdown);
      expect(assembled.pages).toEqual(whole.pages);
      expect(assembled.stopped).toBe(false);
    }
  });

  it('counts progress within the range and reads none of the pages outside it', async () => {
    const done: number[] = [];
    const part = await readPdfPages(path, 'report.pdf', { first: 5, last: 8 }, (n) => done.push(n));
    expect(done).toEqual([1, 2, 3, 4]);
    expect(part.reports.map((r) => r.page)).toEqual([5, 6, 7, 8]);
    expect(part.pages).toHaveLength(4);
  });

  it('a range past the last page ends at the last page', async () => {
    const part = await readPdfPages(path, 'report.pdf', { first: 10, last: 20 }, () => undefined);
    expect(part.reports.map((r) => r.page)).toEqual([10, 11, 12]);
  });

  it('a range whose pages all failed leaves the others delivered; a file of failed ranges fails whole', async () => {
    const first = await readPdfPages(path, 'report.pdf', { first: 1, last: 6 }, () => undefined);
    const lost = {
      pages: [],
      reports: [7, 8, 9, 10, 11, 12].map((page) => ({ page, source: 'failed' as const, notes: ['Interrupted.'] })),
      stopped: false,
    };
    const assembled = assemblePdf([first, lost]);
    expect(assembled.markdown).toContain('Page 6 reports');
    expect(assembled.markdown).not.toContain('Page 7 reports');
    expect(assembled.pages.filter((p) => p.source === 'failed').map((p) => p.page)).toEqual([7, 8, 9, 10, 11, 12]);
    expect(() => assemblePdf([lost])).toThrow('Interrupted.');
  });

  it('a range stopped by a cancel keeps the pages finished before it, and the document says it stopped', async () => {
    // The cancel comes as page 2 finishes: page 2 did not finish before it, so only page 1 is kept.
    let read = 0;
    const part = await readPdfPages(
      path,
      'report.pdf',
      { first: 1, last: 6 },
      () => read++,
      undefined,
      () => read >= 2,
    );
    expect(part).toMatchObject({ stopped: true, dropped: { first: 2, last: 2 } });
    expect(part.reports.map((r) => r.page)).toEqual([1]);
    const rest = await readPdfPages(path, 'report.pdf', { first: 7, last: 12 }, () => undefined);
    expect(assemblePdf([part, rest])).toMatchObject({ stopped: true });
  });
});
