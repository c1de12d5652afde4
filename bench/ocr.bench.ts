import { extractToMarkdown, type OcrOptions } from '@docconv/documents';
import { EasyOcrEngine, OCR_LANGUAGES, RapidOcrEngine, TesseractEngine, toPgm, type GreyImage } from '@docconv/ocr';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import PDFDocument from 'pdfkit';
import { renderPage } from '../libs/documents/src/pdf/render-page';
import { BENCH_DATA, table } from './support';

const PARAGRAPH =
  'The committee reviewed the quarterly figures and found that revenue grew in every region, ' +
  'while costs stayed flat. Shipping delays in the spring were resolved by adding a second ' +
  'warehouse, and customer complaints fell by a third compared with the same period last year. ';

/** A two-page text PDF set like a report (two columns of body text under a heading). */
async function reportPdf(path: string): Promise<void> {
  const doc = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', resolve));
  for (let n = 1; n <= 2; n++) {
    doc.addPage({ size: 'A4', margin: 56 });
    doc.fontSize(18).text(`Quarterly report, part ${n}`, 56, 56);
    doc.fontSize(10).text(PARAGRAPH.repeat(6), 56, 100, { columns: 2, columnGap: 20, width: 483, height: 650 });
  }
  doc.end();
  await done;
  await writeFile(path, Buffer.concat(chunks));
}

/** The same pages as a scan: each page rendered at 300 dpi and placed as a picture, no text layer. */
async function scannedPdf(source: string, path: string): Promise<GreyImage[]> {
  const images = [await renderPage(source, 1, 300), await renderPage(source, 2, 300)];
  const doc = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', resolve));
  const sharp = (await import('sharp')).default;
  for (const image of images) {
    const png = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
      .png()
      .toBuffer();
    doc.addPage({ size: 'A4', margin: 0 });
    doc.image(png, 0, 0, { width: 595.28, height: 841.89 });
  }
  doc.end();
  await done;
  await writeFile(path, Buffer.concat(chunks));
  return images;
}

/** Seconds the native `tesseract` command takes on a PGM, as our engine calls it (mode 3, one thread). */
function nativeSeconds(pgm: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      'tesseract',
      ['stdin', 'stdout', '-l', OCR_LANGUAGES.join('+'), '--psm', '3', '-c', 'preserve_interword_spaces=1'],
      { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['pipe', 'ignore', 'ignore'] },
    );
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve((performance.now() - started) / 1000) : reject(new Error(`tesseract exited ${code}`)),
    );
    child.stdin.end(pgm);
  });
}

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

/**
 * OCR cost per 300-dpi page: the native `tesseract` command on the page's PGM (the reference),
 * our tesseract engine on the same image (basic and premium), rapidocr, and a whole scanned PDF
 * through the extractor (render + OCR + layout) with one and with two pages at a time.
 */
export async function benchOcr(): Promise<string> {
  await mkdir(BENCH_DATA, { recursive: true });
  const text = join(BENCH_DATA, 'ocr-report.pdf');
  const scan = join(BENCH_DATA, 'ocr-report-scan.pdf');
  if (!existsSync(text)) await reportPdf(text);
  const images = await scannedPdf(text, scan);
  const page = images[0];
  const pgm = toPgm(page);

  const tesseract = await TesseractEngine.create();
  const rows: Record<string, string>[] = [];
  const native = await nativeSeconds(pgm);
  rows.push({ run: 'native tesseract command (reference)', 'seconds/page': native.toFixed(2), 'vs native': '1.00' });
  for (const model of ['basic', 'premium'] as const) {
    const seconds = await timed(() => tesseract.recognize({ image: page, model, languages: [...OCR_LANGUAGES] }));
    rows.push({
      run: `tesseract engine, ${model}`,
      'seconds/page': seconds.toFixed(2),
      'vs native': (seconds / native).toFixed(2),
    });
  }
  await tesseract.close();
  if (await RapidOcrEngine.available()) {
    const rapid = await RapidOcrEngine.create();
    const seconds = await timed(() => rapid.recognize({ image: page, model: 'premium', languages: ['eng'] }));
    rows.push({
      run: 'rapidocr engine, premium',
      'seconds/page': seconds.toFixed(2),
      'vs native': (seconds / native).toFixed(2),
    });
    await rapid.close();
  }

  const python = process.env.ENGINES_PYTHON ?? join(__dirname, '..', '..', '.venv-engines', 'bin', 'python');
  if (await EasyOcrEngine.available(python)) {
    const load = performance.now();
    const easy = await EasyOcrEngine.create({ python });
    const loadSeconds = (performance.now() - load) / 1000;
    rows.push({
      run: 'easyocr engine, start (torch and weights)',
      'seconds/page': loadSeconds.toFixed(2),
      'vs native': '-',
    });
    for (const languages of [['eng'], ['eng', 'kor']]) {
      const seconds = await timed(() => easy.recognize({ image: page, model: 'premium', languages }));
      rows.push({
        run: `easyocr engine, ${languages.join('+')}${languages.includes('kor') ? ' (Korean lines to tesseract)' : ''}`,
        'seconds/page': seconds.toFixed(2),
        'vs native': (seconds / native).toFixed(2),
      });
    }
    await easy.close();
  }

  const options: OcrOptions = {
    engine: 'tesseract',
    model: 'basic',
    dpi: 300,
    languages: [...OCR_LANGUAGES],
    settings: {},
  };
  const input = {
    path: scan,
    kind: 'pdf' as const,
    mime: 'application/pdf',
    displayName: 'scan.pdf',
    units: 2,
    ocr: options,
  };
  const oneAtATime = await timed(() => extractToMarkdown(input, () => undefined));
  rows.push({
    run: 'scanned PDF, render + OCR + layout, 1 slot',
    'seconds/page': (oneAtATime / 2).toFixed(2),
    'vs native': (oneAtATime / 2 / native).toFixed(2),
  });
  const twoSlots = await timed(() =>
    Promise.all([extractToMarkdown(input, () => undefined), extractToMarkdown(input, () => undefined)]),
  );
  rows.push({
    run: 'scanned PDF, 2 slots side by side (throughput)',
    'seconds/page': (twoSlots / 4).toFixed(2),
    'vs native': (twoSlots / 4 / native).toFixed(2),
  });
  return table(`OCR of a 300-dpi A4 page (${page.width}×${page.height} px, two columns of body text)`, rows);
}
