import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractPdf } from './extract-pdf';
import { pageLinks } from './links';
import { pdfBytes } from './testing/pdf-bytes';
import { run } from './testing/text-runs';

describe('web links of a PDF', () => {
  it('take the words their annotation covers, and leave out links inside the document', () => {
    // A page 800 tall: the run's baseline at 100 from the top is at 700 in the PDF's own space.
    const runs = [run('Read the annual report for the figures.', 40, 100)];
    const annotation = (url: string | undefined, x0: number, x1: number) => ({
      subtype: 'Link',
      url,
      rect: [x0, 696, x1, 710],
    });
    const links = pageLinks(
      [annotation('https://example.org/report.pdf', 85, 150), annotation(undefined, 40, 60)],
      [0, 0, 600, 800],
      runs,
    );
    expect(links).toEqual([
      { url: 'https://example.org/report.pdf', boxes: [[85, 90, 150, 104]], text: 'annual report' },
    ]);
  });

  describe('in a PDF', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'docconv-links-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('link the words they cover to their target, an address cut at a line end whole', async () => {
      const bytes = await pdfBytes((doc) => {
        doc.addPage({ size: 'A4', margin: 0 });
        doc.font('Helvetica').fontSize(10);
        doc.text('Read the ', 60, 100, { continued: true, lineBreak: false });
        doc.text('annual report', { link: 'https://example.org/annual-2025.pdf', continued: true, lineBreak: false });
        doc.text(' for the figures of every region.', { lineBreak: false });
        const plan = 'https://example.org/advisory/PhaseI';
        doc.text('The plan is at ', 60, 112, { continued: true, lineBreak: false });
        doc.text('https://example.org/advisory/', { link: plan, lineBreak: false });
        doc.text('PhaseI', 60, 124, { link: plan, continued: true, lineBreak: false });
        doc.text(' and in print.', { lineBreak: false });
      });
      const path = join(dir, 'links.pdf');
      await writeFile(path, bytes);

      const { markdown } = await extractPdf(path, 'links.pdf', () => undefined);
      expect(markdown).toContain('Read the [annual report](https://example.org/annual-2025.pdf) for the figures');
      expect(markdown).toContain(
        'The plan is at [https://example.org/advisory/PhaseI](https://example.org/advisory/PhaseI) and in print.',
      );
    });
  });
});
