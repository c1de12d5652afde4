import { extractToMarkdown, PageReader, type ExtractInput, type OcrOptions } from '@docconv/documents';
import {
  EasyOcrEngine,
  OCR_LANGUAGES,
  RapidOcrEngine,
  tessdataFolder,
  TesseractEngine,
  toPgm,
  type GreyImage,
  type OcrEngineName,
  type OcrModelName,
} from '@docconv/ocr';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
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

/**
 * One page per Tesseract model: the command line on the page (the reference); our engine on the
 * same image told its language (what the command line is told); the worker's whole-page reading of a
 * file's first page (orientation and language probes, then the engine's passes within the 10 s
 * budget); and of a later page, once an earlier one was read surely (read the same way up and in the
 * same language straight away). Calls: recognition calls (premium's extra passes, when the
 * confidence calls for them, are calls beyond the first).
 */
async function tesseractRows(label: string, page: GreyImage, language: string): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  const pgm = toPgm(page);
  const engine = await TesseractEngine.create({ runtime: 'native' });
  try {
    for (const model of ['basic', 'premium'] as OcrModelName[]) {
      const options: OcrOptions = { engine: 'tesseract', model, dpi: 300, languages: [...OCR_LANGUAGES], settings: {} };
      const calls: Record<string, number> = {};
      const args = await commandLine(model, language);
      const later = new PageReader(options);
      await later.readPage(page); // a page of the file read before: the next one is read as it was
      const { reference, measured } = await rounds(() => runProgram('tesseract', args, pgm), {
        engine: async () => {
          const result = await engine.recognize({ image: page, model, languages: [language], pageLanguage: language });
          calls.engine = result.calls;
        },
        first: async () => {
          const reader = new PageReader(options);
          calls.first = (await reader.readPage(page)).calls;
          await reader.close();
        },
        later: async () => {
          calls.later = (await later.readPage(page)).calls;
        },
      });
      await later.close();
      rows.push(
        referenceRow(
          `${label}: tesseract ${args.join(' ').replace(/--tessdata-dir \S+/, '--tessdata-dir <best_int>')}`,
          reference,
        ),
      );
      rows.push(
        row(
          `${label}: ${model}, engine on the image (-l ${language})`,
          measured.engine,
          reference,
          String(calls.engine),
        ),
      );
      rows.push(
        row(`${label}: ${model}, worker, first page (probes + engine)`, measured.first, reference, String(calls.first)),
      );
      rows.push(
        row(
          `${label}: ${model}, worker, later page (read as the last one)`,
          measured.later,
          reference,
          String(calls.later),
        ),
      );
    }
  } finally {
    await engine.close();
  }
  return rows;
}

/**
 * The engines without a command line of their own (rapidocr runs in this process, EasyOCR in our
 * Python server), one whole-page reading each as the worker makes it, beside Tesseract's basic
 * command line on the same image.
 */
async function otherEngineRows(
  label: string,
  page: GreyImage,
  language: string,
  engines: OcrEngineName[],
  python: string,
): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  const args = await commandLine('basic', language);
  for (const engine of engines) {
    const reader = new PageReader({
      engine,
      model: 'premium',
      dpi: 300,
      languages: [...OCR_LANGUAGES],
      settings: { enginesPython: python },
    });
    await reader.read({ width: 8, height: 8, data: Buffer.alloc(64, 255) }); // opens the engine outside the timing
    const reference = timing([await seconds(() => runProgram('tesseract', args, toPgm(page)))]);
    const reading = await reader.readPage(page);
    await reader.close();
    rows.push(
      row(
        `${label}: ${engine} premium, worker, first page${reading.cut ? ' (budget ran out)' : ''}; reference: tesseract basic`,
        timing([reading.seconds]),
        reference,
        String(reading.calls),
      ),
    );
  }
  return rows;
}

/** The scanned PDF as the worker hands it to the extractor, read with Tesseract's `model`. */
function scanInput(scan: string, pages: number, model: OcrModelName): ExtractInput {
  return {
    path: scan,
    kind: 'pdf',
    mime: 'application/pdf',
    displayName: 'scan.pdf',
    units: pages,
    ocr: { engine: 'tesseract', model, dpi: 300, languages: [...OCR_LANGUAGES], settings: {} },
  };
}

/**
 * The scanned PDF through the extractor (render + OCR + layout), seconds per page, next to the
 * same pages done by hand in the same rounds: `pdftoppm -gray -r 300 | tesseract` per page.
 */
async function scannedPdfRows(scan: string, pages: number): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for (const model of ['basic', 'premium'] as OcrModelName[]) {
    const args = await commandLine(model, 'eng');
    const input = scanInput(scan, pages, model);
    let calls = 0;
    const perPage = (t: Timing): Timing => ({ median: t.median / pages, min: t.min / pages });
    const { reference, measured } = await rounds(
      async () => {
        for (let n = 1; n <= pages; n++) await byHand(scan, n, args);
      },
      {
        ours: async () => {
          const { pages: reports } = await extractToMarkdown(input, () => undefined);
          calls = reports.length;
        },
      },
    );
    rows.push(referenceRow(`scanned PDF, ${model}: pdftoppm -gray -r 300 | tesseract, per page`, perPage(reference)));
    rows.push(
      row(
        `scanned PDF, ${model}: render + OCR + layout, 1 slot`,
        perPage(measured.ours),
        perPage(reference),
        `${calls} pages`,
      ),
    );
  }
  // Two files side by side (the worker's two slots) against two pipelines by hand side by side.
  const args = await commandLine('basic', 'eng');
  const input = scanInput(scan, pages, 'basic');
  const twice = <T>(work: () => Promise<T>) => Promise.all([work(), work()]);
  const { reference, measured } = await rounds(
    () =>
      twice(async () => {
        for (let n = 1; n <= pages; n++) await byHand(scan, n, args);
      }),
    { ours: () => twice(() => extractToMarkdown(input, () => undefined)) },
  );
  const throughput = (t: Timing): Timing => ({ median: t.median / (2 * pages), min: t.min / (2 * pages) });
  rows.push(referenceRow('scanned PDF, basic: two pipelines by hand side by side, per page', throughput(reference)));
  rows.push(
    row('scanned PDF, basic: 2 slots side by side (throughput)', throughput(measured.ours), throughput(reference)),
  );
  return rows;
}

/**
 * OCR cost per page, on an English 300-dpi page and a Korean 96-dpi one, each figure beside the
 * command line run on the same image in the same run (median and minimum of three rounds; goal
 * ≤ 1.15×): Tesseract per model (the engine alone, the worker's first page, a later page), the other
 * engines once, and a scanned PDF of two such pages through the extractor against `pdftoppm` +
 * `tesseract` by hand.
 */
export async function benchOcr(): Promise<string> {
  await mkdir(BENCH_DATA, { recursive: true });
  const text = join(BENCH_DATA, 'ocr-report.pdf');
  const scan = join(BENCH_DATA, 'ocr-report-scan.pdf');
  if (!existsSync(text)) await reportPdf(text);
  const images = await scannedPdf(text, scan);
  const page = images[0];
  const korean = await koreanPage();

  const rows: Record<string, string>[] = [];
  rows.push(...(await tesseractRows('English 300 dpi', page, 'eng')));
  rows.push(...(await tesseractRows('Korean 96 dpi', korean, 'kor')));
  rows.push(...(await scannedPdfRows(scan, images.length)));

  const python = process.env.ENGINES_PYTHON ?? join(__dirname, '..', '..', '.venv-engines', 'bin', 'python');
  const engines: OcrEngineName[] = [];
  if (await RapidOcrEngine.available()) engines.push('rapidocr');
  if (await EasyOcrEngine.available(python)) {
    const start = await seconds(async () => (await EasyOcrEngine.create({ python })).close());
    rows.push({ run: 'easyocr engine, start (torch and weights)', calls: '-', 's/page median': start.toFixed(2) });
    engines.push('easyocr');
  }
  rows.push(...(await otherEngineRows('English 300 dpi', page, 'eng', engines, python)));
  rows.push(...(await otherEngineRows('Korean 96 dpi', korean, 'kor', engines, python)));
  return table(
    `OCR per page: an English 300-dpi A4 page (${page.width}×${page.height} px, two columns of body text) and a Korean 96-dpi one; ` +
      `each figure beside its reference, measured in the same rounds (median and min of ${RUNS}; goal ≤ 1.15×)`,
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
