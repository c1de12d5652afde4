import { DomainError } from '@docconv/contracts';
import { spawn } from 'node:child_process';
import sharp from 'sharp';
import {
  meanConfidence,
  unionBox,
  type GreyImage,
  type OcrEngine,
  type OcrLine,
  type OcrRequest,
  type OcrResult,
  type OcrWord,
} from './engine';
import { tessdataFolder } from './tessdata';

/** Below this mean confidence a page is read again in page segmentation mode 4. */
const RETRY_BELOW = 90;
/** Below this mean confidence the premium model also tries a cleaned-up (binarised) image. */
const PREPROCESS_BELOW = 75;

type Reader = (pgm: Buffer, psm: number, model: OcrRequest['model'], languages: string[]) => Promise<OcrLine[]>;

/**
 * Tesseract. The native program from Debian runs as one child process per page, with one
 * OpenMP thread, the image on stdin as PGM and interword spaces preserved (Korean otherwise
 * gets a space between syllables). Page segmentation mode 3 first; below a mean confidence of
 * 90 the page is read again in mode 4 (one column of text of varying sizes) and the better
 * reading kept. `basic` uses Debian's fast models; `premium` the `best_int` models from the npm
 * data packages, and retries a low-confidence page on a binarised copy. Without the native
 * program, tesseract.js reads with the same models.
 */
export class TesseractEngine implements OcrEngine {
  readonly name = 'tesseract';

  private constructor(
    private readonly read: Reader,
    private readonly release: () => Promise<void>,
    readonly runtime: 'native' | 'wasm',
  ) {}

  /** The native program when it runs here, otherwise (or when asked for) tesseract.js. */
  static async create(options: { runtime?: 'native' | 'wasm' } = {}): Promise<TesseractEngine> {
    const runtime = options.runtime ?? ((await nativeAvailable()) ? 'native' : 'wasm');
    if (runtime === 'native') return new TesseractEngine(readNative, () => Promise.resolve(), 'native');
    const wasm = new WasmReader();
    return new TesseractEngine(
      (pgm, psm, model, languages) => wasm.read(pgm, psm, model, languages),
      () => wasm.close(),
      'wasm',
    );
  }

  async recognize({ image, model, languages }: OcrRequest): Promise<OcrResult> {
    const langs = languages.length > 0 ? languages : ['eng'];
    let best = await this.readBest(toPgm(image), model, langs);
    if (model === 'premium' && best.confidence < PREPROCESS_BELOW && best.lines.length > 0) {
      // Binarising rescues faded or uneven scans and can hurt clean pages: keep the better.
      const cleaned = await this.readBest(toPgm(await binarise(image)), model, langs);
      if (cleaned.confidence > best.confidence) best = cleaned;
    }
    return {
      engine: 'tesseract',
      width: image.width,
      height: image.height,
      lines: best.lines,
      confidence: best.confidence,
      notes: [],
    };
  }

  close(): Promise<void> {
    return this.release();
  }

  private async readBest(pgm: Buffer, model: OcrRequest['model'], languages: string[]) {
    const first = await this.read(pgm, 3, model, languages);
    const firstConfidence = meanConfidence(first);
    if (firstConfidence >= RETRY_BELOW) return { lines: first, confidence: firstConfidence };
    const second = await this.read(pgm, 4, model, languages);
    const secondConfidence = meanConfidence(second);
    return secondConfidence > firstConfidence
      ? { lines: second, confidence: secondConfidence }
      : { lines: first, confidence: firstConfidence };
  }
}

/** A binary PGM (P5) of a greyscale image. */
export function toPgm(image: GreyImage): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${image.width} ${image.height}\n255\n`), image.data]);
}

async function binarise(image: GreyImage): Promise<GreyImage> {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
    .normalise()
    .median(3)
    .threshold(140)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

// ---------------------------------------------------------------------------------------------
// Native program

let native: Promise<boolean> | undefined;

/** Whether the `tesseract` program runs on this machine (asked once). */
export function nativeAvailable(): Promise<boolean> {
  native ??= new Promise((resolve) => {
    const child = spawn('tesseract', ['--version'], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
  return native;
}

async function readNative(
  pgm: Buffer,
  psm: number,
  model: OcrRequest['model'],
  languages: string[],
): Promise<OcrLine[]> {
  const args = ['stdin', 'stdout', '-l', languages.join('+'), '--psm', String(psm)];
  if (model === 'premium') args.push('--tessdata-dir', await tessdataFolder('best', 'plain'));
  args.push('-c', 'preserve_interword_spaces=1', '-c', 'tessedit_create_tsv=1');
  return parseTsv(await run(args, pgm));
}

function run(args: string[], input: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('tesseract', args, { env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new DomainError('engine_unavailable', 'The tesseract program is not installed on this worker.')
          : error,
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else
        reject(new Error(`tesseract exited with ${code}: ${Buffer.concat(err).toString('utf8').trim().slice(0, 200)}`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/**
 * Lines from Tesseract's TSV output: word rows (level 5) grouped by block, paragraph and line
 * number, in the order Tesseract read them.
 */
export function parseTsv(tsv: string): OcrLine[] {
  const lines = new Map<string, { paragraph: string; words: OcrWord[] }>();
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t');
    if (cells.length < 12 || cells[0] !== '5') continue;
    const text = cells.slice(11).join('\t').trim();
    const confidence = Number(cells[10]);
    if (text === '' || confidence < 0) continue;
    const [block, paragraph, line] = [cells[2], cells[3], cells[4]];
    const key = `${block}.${paragraph}.${line}`;
    let entry = lines.get(key);
    if (!entry) lines.set(key, (entry = { paragraph: `${block}.${paragraph}`, words: [] }));
    entry.words.push({
      text,
      confidence,
      box: { x: Number(cells[6]), y: Number(cells[7]), width: Number(cells[8]), height: Number(cells[9]) },
    });
  }
  return [...lines.values()].map(({ paragraph, words }) => toLine(words, paragraph));
}

/** Hangul and CJK: scripts Tesseract splits into one "word" per syllable or character. */
const CJK = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * A line's text from its words. Tesseract reports Korean (and CJK) syllables as separate words;
 * two of them that touch are one word on the page, so a space goes in only where the gap
 * between them is as wide as a real space (a quarter of the line's height).
 */
export function lineText(words: OcrWord[]): string {
  const height = Math.max(...words.map((w) => w.box.height));
  return words.reduce((text, word, i) => {
    if (i === 0) return word.text;
    const previous = words[i - 1];
    const gap = word.box.x - (previous.box.x + previous.box.width);
    const joined = CJK.test(previous.text.slice(-1)) && CJK.test(word.text[0]) && gap < height * 0.25;
    return joined ? text + word.text : `${text} ${word.text}`;
  }, '');
}

function toLine(words: OcrWord[], paragraph?: string): OcrLine {
  return {
    text: lineText(words),
    box: unionBox(words.map((w) => w.box)),
    confidence: words.reduce((s, w) => s + w.confidence, 0) / words.length,
    words,
    paragraph,
  };
}

// ---------------------------------------------------------------------------------------------
// tesseract.js, when the native program is missing

interface WasmBbox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface WasmPage {
  blocks:
    | {
        paragraphs: { lines: { words: { text: string; confidence: number; bbox: WasmBbox }[] }[] }[];
      }[]
    | null;
}
interface WasmWorker {
  setParameters(params: Record<string, string>): Promise<unknown>;
  recognize(image: Buffer, options: object, output: object): Promise<{ data: WasmPage }>;
  terminate(): Promise<unknown>;
}

/** One tesseract.js worker per model and language set, created on first use. */
class WasmReader {
  private readonly workers = new Map<string, Promise<WasmWorker>>();

  async read(pgm: Buffer, psm: number, model: OcrRequest['model'], languages: string[]): Promise<OcrLine[]> {
    const worker = await this.worker(model, languages);
    await worker.setParameters({ tessedit_pageseg_mode: String(psm), preserve_interword_spaces: '1' });
    const { data } = await worker.recognize(pgm, {}, { blocks: true, text: false });
    const out: OcrLine[] = [];
    (data.blocks ?? []).forEach((block, b) =>
      block.paragraphs.forEach((paragraph, p) =>
        paragraph.lines.forEach((line) => {
          const words: OcrWord[] = line.words
            .filter((w) => w.text.trim() !== '')
            .map((w) => ({
              text: w.text.trim(),
              confidence: w.confidence,
              box: { x: w.bbox.x0, y: w.bbox.y0, width: w.bbox.x1 - w.bbox.x0, height: w.bbox.y1 - w.bbox.y0 },
            }));
          if (words.length > 0) out.push(toLine(words, `${b}.${p}`));
        }),
      ),
    );
    return out;
  }

  private worker(model: OcrRequest['model'], languages: string[]): Promise<WasmWorker> {
    const key = `${model}:${languages.join('+')}`;
    let worker = this.workers.get(key);
    if (!worker) {
      worker = (async () => {
        const tesseract = (await import('tesseract.js')) as unknown as {
          createWorker: (langs: string, oem: number, options: object) => Promise<WasmWorker>;
        };
        return tesseract.createWorker(languages.join('+'), 1, {
          langPath: await tessdataFolder(model === 'premium' ? 'best' : 'fast', 'gzip'),
          cacheMethod: 'none',
          gzip: true,
        });
      })();
      this.workers.set(key, worker);
    }
    return worker;
  }

  async close(): Promise<void> {
    const workers = [...this.workers.values()];
    this.workers.clear();
    for (const worker of workers) await (await worker).terminate();
  }
}
