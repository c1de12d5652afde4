import { DEFAULT_OCR_PAGE_DEADLINE_SECONDS, engineThreads } from '@docconv/config';
import { extractToMarkdown, PageReader, type ExtractInput, type OcrOptions } from '@docconv/reading';
import {
  EasyOcrEngine,
  OCR_LANGUAGES,
  RapidOcrEngine,
  tessdataFolder,
  toPgm,
  type GreyImage,
  type OcrEngineName,
  type OcrModelName,
} from '@docconv/ocr';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pdfBytes } from '../libs/documents/src/pdf/testing/pdf-bytes';
import sharp from 'sharp';
import { renderPage } from '../libs/documents/src/pdf/render-page';
import { BENCH_DATA, median, scanPdf, table } from './support';

const PARAGRAPH =
  'The committee reviewed the quarterly figures and found that revenue grew in every region, ' +
  'while costs stayed flat. Shipping delays in the spring were resolved by adding a second ' +
  'warehouse, and customer complaints fell by a third compared with the same period last year. ';

/** A two-page text PDF set like a report (two columns of body text under a heading). */
async function reportPdf(path: string): Promise<void> {
  const bytes = await pdfBytes((doc) => {
    for (let n = 1; n <= 2; n++) {
      doc.addPage({ size: 'A4', margin: 56 });
      doc.fontSize(18).text(`Quarterly report, part ${n}`, 56, 56);
      doc.fontSize(10).text(PARAGRAPH.repeat(6), 56, 100, { columns: 2, columnGap: 20, width: 483, height: 650 });
    }
  });
  await writeFile(path, bytes);
}

/** The same pages as a scan: each page rendered at 300 dpi and placed as a picture, no text layer. */
async function scannedPdf(source: string, path: string): Promise<GreyImage[]> {
  const images = [await renderPage(source, 1, 300), await renderPage(source, 2, 300)];
  await scanPdf(images, path);
  return images;
}

/**
 * A Korean page as a 96-dpi scan (A4, 794×1123 px, 10-point NanumGothic), the size of a faxed or
 * web-saved press release. Each line starts further into the text, as lines of a paragraph do:
 * thirty identical lines would stack their syllables into columns as sharp as the rows, which the
 * orientation probes take for a page lying on its side.
 */
async function koreanPage(): Promise<GreyImage> {
  const text =
    '과학기술정보통신부는 우리나라 최초로 순수 우리기술로 개발 중인 한국형발사체의 새로운 이름으로 누리가 ' +
    '선정되었다고 밝혔다. 한국형발사체는 실용위성을 지구 저궤도까지 쏘아 올릴 수 있는 우주발사체로 ';
  const rows = Array.from({ length: 30 }, (_, i) => {
    const start = (i * 17) % text.length;
    const line = (text.slice(start) + text.slice(0, start)).slice(0, 40).trim();
    return `<text x="70" y="${100 + i * 30}" font-family="NanumGothic" font-size="14">${line}</text>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="794" height="1123"><rect width="100%" height="100%" fill="white"/>${rows}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** Runs a program with `input` on its standard input, its output thrown away; rejects when it fails. */
function runProgram(command: string, args: string[], input?: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      stdio: [input ? 'pipe' : 'ignore', 'ignore', 'ignore'],
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`))));
    child.stdin?.end(input);
  });
}

/**
 * The `tesseract` command a user would run on the image (one OpenMP thread, PGM on stdin, plain
 * text out) in the engine's first pass: mode 3, the model's own language files (`premium`: the
 * best_int models our engine reads with).
 */
async function commandLine(model: OcrModelName, language: string): Promise<string[]> {
  const models = model === 'premium' ? ['--tessdata-dir', await tessdataFolder('best', 'plain')] : [];
  return ['stdin', 'stdout', '-l', language, '--psm', '3', ...models, '-c', 'preserve_interword_spaces=1'];
}

/** `pdftoppm -gray -r 300` of one page piped into `tesseract`: the scanned-PDF path done by hand. */
function byHand(pdf: string, page: number, tesseract: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const render = spawn('pdftoppm', ['-gray', '-r', '300', '-f', String(page), '-l', String(page), pdf], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const read = spawn('tesseract', tesseract, {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    render.stdout.pipe(read.stdin);
    render.on('error', reject);
    read.on('error', reject);
    read.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tesseract exited ${code}`))));
  });
}

async function seconds(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

/** Median and minimum of a measurement taken `runs` times, the reference measured in the same rounds. */
interface Timing {
  median: number;
  min: number;
}

function timing(values: number[]): Timing {
  return { median: median(values), min: Math.min(...values) };
}

const RUNS = 3;

/**
 * Measures a reference and the measurements next to it, one after another in each of RUNS rounds
 * (so that the machine's load weighs on them alike).
 */
async function rounds(
  reference: () => Promise<unknown>,
  measured: Record<string, () => Promise<unknown>>,
): Promise<{ reference: Timing; measured: Record<string, Timing> }> {
  const times: Record<string, number[]> = { reference: [] };
  for (let run = 0; run < RUNS; run++) {
    times.reference.push(await seconds(reference));
    for (const [name, work] of Object.entries(measured)) (times[name] ??= []).push(await seconds(work));
  }
  return {
    reference: timing(times.reference),
    measured: Object.fromEntries(Object.keys(measured).map((name) => [name, timing(times[name])])),
  };
}

function row(run: string, time: Timing, reference: Timing, calls = ''): Record<string, string> {
  return {
    run,
    calls,
    's/page median': time.median.toFixed(2),
    's/page min': time.min.toFixed(2),
    'vs reference (median)': (time.median / reference.median).toFixed(2),
    'vs reference (min)': (time.min / reference.min).toFixed(2),
  };
}

function referenceRow(run: string, time: Timing): Record<string, string> {
  return { ...row(`${run} (reference)`, time, time), calls: '1' };
}

/** The engines and models a job may ask for, each read as the worker reads a file's first page. */
const ENGINE_RUNS: [OcrEngineName, OcrModelName][] = [
  ['easyocr', 'basic'],
  ['easyocr', 'premium'],
  ['rapidocr', 'premium'],
  ['tesseract', 'basic'],
  ['tesseract', 'premium'],
];

/** The threads one worker slot gives an engine call: the cores shared by the worker's default slots. */
function slotThreads(): number {
  return engineThreads(availableParallelism(), availableParallelism());
}

/** The OCR settings of one worker slot reading with `engine` and `model`: 300 dpi, its languages, its threads and deadline. */
function workerOcr(engine: OcrEngineName, model: OcrModelName, python: string): OcrOptions {
  return {
    engine,
    model,
    dpi: 300,
    languages: [...OCR_LANGUAGES],
    settings: { enginesPython: python, threads: slotThreads() },
    pageDeadlineSeconds: DEFAULT_OCR_PAGE_DEADLINE_SECONDS,
  };
}

/**
 * One page read by every engine and model as the worker reads a file's first page (orientation and
 * language probes, then the engine; a slot's threads), beside the `tesseract` command line on the
 * same image (basic, `-l` the page's language) in the same rounds. Each reader is opened before
 * the rounds (a worker opens its engines once).
 */
async function engineRows(
  label: string,
  page: GreyImage,
  language: string,
  engines: OcrEngineName[],
  python: string,
): Promise<Record<string, string>[]> {
  const args = await commandLine('basic', language);
  const runs = ENGINE_RUNS.filter(([engine]) => engines.includes(engine));
  const readers = runs.map(([engine, model]) => new PageReader(workerOcr(engine, model, python)));
  const calls: Record<string, number> = {};
  try {
    for (const reader of readers) await reader.read({ width: 8, height: 8, data: Buffer.alloc(64, 255) });
    const pgm = toPgm(page);
    const { reference, measured } = await rounds(
      () => runProgram('tesseract', args, pgm),
      Object.fromEntries(
        runs.map(([engine, model], i) => [
          `${engine} ${model}`,
          async () => {
            calls[`${engine} ${model}`] = (await readers[i].readPage(page, 1)).calls;
          },
        ]),
      ),
    );
    return [
      referenceRow(`${label}: tesseract ${args.join(' ')}`, reference),
      ...runs.map(([engine, model]) =>
        row(
          `${label}: ${engine} ${model}, worker, first page`,
          measured[`${engine} ${model}`],
          reference,
          String(calls[`${engine} ${model}`]),
        ),
      ),
    ];
  } finally {
    for (const reader of readers) await reader.close();
  }
}

/** The scanned PDF as the worker hands it to the extractor, read with `engine` and `model`. */
function scanInput(
  scan: string,
  pages: number,
  engine: OcrEngineName,
  model: OcrModelName,
  python: string,
): ExtractInput {
  return {
    path: scan,
    kind: 'pdf',
    mime: 'application/pdf',
    displayName: 'scan.pdf',
    units: pages,
    ocr: workerOcr(engine, model, python),
  };
}

/**
 * The scanned PDF through the extractor (render + OCR + layout, the engine opened for the file as
 * a job opens it), seconds per page, with the contract's default engine and model and with
 * Tesseract basic, next to the same pages done by hand in the same rounds: `pdftoppm -gray -r 300 |
 * tesseract` per page.
 */
async function scannedPdfRows(
  scan: string,
  pages: number,
  engines: OcrEngineName[],
  python: string,
): Promise<Record<string, string>[]> {
  const args = await commandLine('basic', 'eng');
  const runs = (
    [
      ['easyocr', 'premium'],
      ['tesseract', 'basic'],
    ] as [OcrEngineName, OcrModelName][]
  ).filter(([engine]) => engines.includes(engine));
  const perPage = (t: Timing): Timing => ({ median: t.median / pages, min: t.min / pages });
  const { reference, measured } = await rounds(
    async () => {
      for (let n = 1; n <= pages; n++) await byHand(scan, n, args);
    },
    Object.fromEntries(
      runs.map(([engine, model]) => [
        `${engine} ${model}`,
        () => extractToMarkdown(scanInput(scan, pages, engine, model, python), () => undefined),
      ]),
    ),
  );
  return [
    referenceRow('scanned PDF: pdftoppm -gray -r 300 piped to tesseract, per page', perPage(reference)),
    ...runs.map(([engine, model]) =>
      row(
        `scanned PDF: ${engine} ${model}, whole job (render + OCR + layout), 1 slot`,
        perPage(measured[`${engine} ${model}`]),
        perPage(reference),
        `${pages} pages`,
      ),
    ),
  ];
}

/**
 * OCR cost per page on an English 300-dpi two-column page, the same page at 150 dpi and a Korean
 * 96-dpi one: every engine and model as the worker reads a page on one slot, each beside the
 * `tesseract` command line on the same image in the same rounds (median and minimum of three
 * rounds; issue 42's bound: EasyOCR and RapidOCR within 2×); and a scanned PDF of two such pages,
 * a whole job with the default engine and model, against `pdftoppm` + `tesseract` by hand (bound:
 * 2.5×).
 */
export async function benchOcr(): Promise<string> {
  await mkdir(BENCH_DATA, { recursive: true });
  const text = join(BENCH_DATA, 'ocr-report.pdf');
  const scan = join(BENCH_DATA, 'ocr-report-scan.pdf');
  if (!existsSync(text)) await reportPdf(text);
  const images = await scannedPdf(text, scan);
  const page = images[0];
  const low = await renderPage(text, 1, 150);
  const korean = await koreanPage();

  const python = process.env.ENGINES_PYTHON ?? join(__dirname, '..', '..', '.venv-engines', 'bin', 'python');
  const engines: OcrEngineName[] = ['tesseract'];
  if (await RapidOcrEngine.available()) engines.push('rapidocr');
  if (await EasyOcrEngine.available(python)) engines.push('easyocr');

  const rows: Record<string, string>[] = [];
  rows.push(...(await engineRows('English 300 dpi', page, 'eng', engines, python)));
  rows.push(...(await engineRows('English 150 dpi', low, 'eng', engines, python)));
  rows.push(...(await engineRows('Korean 96 dpi', korean, 'kor', engines, python)));
  rows.push(...(await scannedPdfRows(scan, images.length, engines, python)));
  return table(
    `OCR per page on one worker slot (${slotThreads()} engine thread${slotThreads() === 1 ? '' : 's'}): an English A4 page ` +
      `(two columns of body text) at 300 dpi (${page.width}×${page.height} px) and 150 dpi, and a Korean 96-dpi one; ` +
      `each figure beside its reference, measured in the same rounds (median and min of ${RUNS}; ` +
      `bounds: EasyOCR and RapidOCR ≤ 2× per page, a whole job with the default engine ≤ 2.5×)`,
    rows.map((r) => ({
      run: r.run,
      calls: r.calls ?? '',
      's/page median': r['s/page median'] ?? '',
      's/page min': r['s/page min'] ?? '',
      'vs reference (median)': r['vs reference (median)'] ?? '',
      'vs reference (min)': r['vs reference (min)'] ?? '',
    })),
  );
}
