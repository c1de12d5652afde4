import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { inspectPdf } from './inspect-pdf';
import { pdfBytes } from './testing/pdf-bytes';

describe('inspectPdf', () => {
  let dir: string;
  beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'inspect-pdf-'))));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** A PDF whose page n is a text page, or a scan (a picture, no text layer) where `scanned(n)`. */
  async function pdf(name: string, pages: number, scanned: (n: number) => boolean): Promise<string> {
    const picture = await sharp({ create: { width: 400, height: 100, channels: 3, background: 'white' } })
      .png()
      .toBuffer();
    const path = join(dir, name);
    const bytes = await pdfBytes((doc) => {
      for (let n = 1; n <= pages; n++) {
        doc.addPage({ size: 'A4', margin: 72 });
        if (scanned(n)) doc.image(picture, 72, 72, { width: 400 });
        else doc.fontSize(12).text(`Page ${n} has a text layer with a sentence on it.`);
      }
    });
    await writeFile(path, bytes);
    return path;
  }

  it('counts the pages and finds no scan in a text PDF', async () => {
    expect(await inspectPdf(await pdf('text.pdf', 30, () => false), 'text.pdf')).toEqual({
      pages: 30,
      needsOcr: false,
    });
  });

  it('finds scanned pages among the sampled ones: the first, the last, or between', async () => {
    for (const [name, scanned] of [
      ['first.pdf', (n: number) => n === 1],
      ['last.pdf', (n: number) => n === 30],
      ['scan.pdf', () => true],
      ['back-half.pdf', (n: number) => n > 15],
    ] as const) {
      expect(await inspectPdf(await pdf(name, 30, scanned), name)).toEqual({ pages: 30, needsOcr: true });
    }
  });
});
