import { extractToMarkdown, PageReader, type OcrOptions } from '@docconv/documents';
import {
  EasyOcrEngine,
  OCR_LANGUAGES,
  RapidOcrEngine,
  toPgm,
  type GreyImage,
  type OcrEngineName,
  type OcrModelName,
} from '@docconv/ocr';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
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

/** A Korean page as a 96-dpi scan (A4, 794×1123 px, 10-point NanumGothic), the size of a faxed or web-saved press release. */
async function koreanPage(): Promise<GreyImage> {
  const line = '과학기술정보통신부는 우리나라 최초로 순수 우리기술로 개발 중인 한국형발사체의';
  const rows = Array.from(
    { length: 30 },
    (_, i) => `<text x="70" y="${100 + i * 30}" font-family="NanumGothic" font-size="14">${line}</text>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="794" height="1123"><rect width="100%" height="100%" fill="white"/>${rows}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/**
 * Seconds the native `tesseract` command takes on a PGM with one OpenMP thread: what a user would
 * run by hand on the page (mode 3 for the English page, mode 4 for the Korean one).
 */
function nativeSeconds(pgm: Buffer, language: string, psm: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      'tesseract',
      ['stdin', 'stdout', '-l', language, '--psm', String(psm), '-c', 'preserve_interword_spaces=1'],
      { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['pipe', 'ignore', 'ignore'] },
    );
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve((performance.now() - started) / 1000) : reject(new Error(`tesseract exited ${code}`)),
    );
    child.stdin.end(pgm);
  });
}

/**
 * Whole-page readings of one page as the worker makes them (orientation and language probe, the
 * engine's passes within the 10 s budget), per engine and model, next to the native command.
 */
async function pageRows(
  label: string,
  page: GreyImage,
  native: { language: string; psm: number },
  engines: OcrEngineName[],
  python: string,
): Promise<Record<string, string>[]> {
  const reference = await nativeSeconds(toPgm(page), native.language, native.psm);
  const rows: Record<string, string>[] = [
    {
      run: `${label}: native tesseract -l ${native.language} --psm ${native.psm} (reference)`,
      'seconds/page': reference.toFixed(2),
      'vs native': '1.00',
    },
  ];
  for (const engine of engines) {
    for (const model of (engine === 'tesseract' ? ['basic', 'premium'] : ['premium']) as OcrModelName[]) {
      const reader = new PageReader({
        engine,
        model,
        dpi: 300,
        languages: [...OCR_LANGUAGES],
        settings: { enginesPython: python },
      });
      await reader.read({ width: 8, height: 8, data: Buffer.alloc(64, 255) }); // opens the engine outside the timing
      const reading = await reader.readPage(page);
      await reader.close();
      rows.push({
        run: `${label}: ${engine} ${model} (${reading.calls} calls${reading.cut ? ', budget ran out' : ''})`,
        'seconds/page': reading.seconds.toFixed(2),
        'vs native': (reading.seconds / reference).toFixed(2),
      });
    }
  }
  return rows;
}

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

/**
 * OCR cost per page, on an English 300-dpi page and a Korean 96-dpi one: the native `tesseract`
 * command on the page (the reference), each engine's whole-page reading as the worker makes it
 * (basic and premium), and a whole scanned PDF through the extractor (render + OCR + layout) with
 * one and with two pages at a time.
 */
export async function benchOcr(): Promise<string> {
  await mkdir(BENCH_DATA, { recursive: true });
  const text = join(BENCH_DATA, 'ocr-report.pdf');
  const scan = join(BENCH_DATA, 'ocr-report-scan.pdf');
  if (!existsSync(text)) await reportPdf(text);
  const images = await scannedPdf(text, scan);
  const page = images[0];

  const python = process.env.ENGINES_PYTHON ?? join(__dirname, '..', '..', '.venv-engines', 'bin', 'python');
  const engines: OcrEngineName[] = ['tesseract'];
  if (await RapidOcrEngine.available()) engines.push('rapidocr');
  const rows: Record<string, string>[] = [];
  if (await EasyOcrEngine.available(python)) {
    const load = performance.now();
    await (await EasyOcrEngine.create({ python })).close();
    rows.push({
      run: 'easyocr engine, start (torch and weights)',
      'seconds/page': ((performance.now() - load) / 1000).toFixed(2),
      'vs native': '-',
    });
    engines.push('easyocr');
  }
  rows.push(...(await pageRows('English 300 dpi', page, { language: 'eng', psm: 3 }, engines, python)));
  rows.push(...(await pageRows('Korean 96 dpi', await koreanPage(), { language: 'kor', psm: 4 }, engines, python)));
  const native = Number(rows.find((row) => row.run.startsWith('English'))!['seconds/page']);

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
  return table(
    `OCR per page: an English 300-dpi A4 page (${page.width}×${page.height} px, two columns of body text) and a Korean 96-dpi one`,
    rows,
  );
}
