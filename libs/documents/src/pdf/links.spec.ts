import { writeMarkdown, type Block } from '@docconv/model';
import { pageLinks, withLinks } from './links';
import { readDrawnPdf } from './testing/drawn-pdf';
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

  it('start and end between words, a misprinted address linked to the end of its word', () => {
    const paragraph = (text: string): Block => ({
      type: 'paragraph',
      content: [{ kind: 'text', text }],
      from: { file: '', page: 1, box: [40, 90, 500, 130] },
    });
    const link = (url: string, text: string) => ({
      url,
      text,
      boxes: [[40, 95, 200, 105] as [number, number, number, number]],
    });
    const blocks = withLinks(
      [
        paragraph('Available at http://who.int/classiications/icd/. Our reports and the report of 2025.'),
        paragraph('Sources: <http://example.org/data(2025).pdf>.'),
      ],
      new Map([
        [
          1,
          [
            link('http://who.int/classifications/icd/', 'http://who.int/classi'),
            link('https://example.org/report-2025', 'report'),
            link('http://example.org/data(2025).pdf', '<http://example.org/data(2025).pdf>.'),
          ],
        ],
      ]),
    );
    expect(writeMarkdown({ version: 1, blocks })).toBe(
      [
        'Available at [http://who.int/classiications/icd/](http://who.int/classifications/icd/). Our reports and the [report](https://example.org/report-2025) of 2025.',
        '',
        'Sources: \\<[http://example.org/data(2025).pdf](http://example.org/data(2025).pdf)>.',
        '',
      ].join('\n'),
    );
  });

  describe('in a PDF', () => {
    it('link the words they cover to their target, an address cut at a line end whole', async () => {
      const { markdown } = await readDrawnPdf('links.pdf', (doc) => {
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
      expect(markdown).toContain('Read the [annual report](https://example.org/annual-2025.pdf) for the figures');
      expect(markdown).toContain(
        'The plan is at [https://example.org/advisory/PhaseI](https://example.org/advisory/PhaseI) and in print.',
      );
    });
  });
});
