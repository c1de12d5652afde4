import { DomainError } from '@docconv/contracts';
import { findAbove, PythonEngine, type EngineState } from '@docconv/engines';
import { join } from 'node:path';
import {
  readingResult,
  ReadingBudget,
  type GreyImage,
  type OcrEngine,
  type OcrLine,
  type OcrRequest,
  type OcrResult,
} from './engine';
import { koreanRegions, readRegions, rereadNote } from './rapidocr';
import { boxAround, lineFromText, orderLines, type Corner } from './reading-order';

/** Where the server script lives below the repository root (and below `dist` when copied there). */
const SERVER_SCRIPT = join('libs', 'ocr', 'easyocr', 'easyocr_server.py');

/** EasyOCR's language codes for our (Tesseract's) ones; others are passed on unchanged. */
const EASYOCR_LANGUAGES: Readonly<Record<string, string>> = { eng: 'en', kor: 'ko' };

export interface EasyOcrOptions {
  /** The engines' Python, with `easyocr` and its weights (the worker's ENGINES_PYTHON). */
  python: string;
  /** The server script; by default `libs/ocr/easyocr/easyocr_server.py` of this repository. */
  script?: string;
  /** Variables added to the process's environment (e.g. EASYOCR_MODEL_DIR). */
  env?: Record<string, string>;
  /** How long the process may take to load its models before it counts as failed. */
  readyTimeoutMs?: number;
  /**
   * The engine that reads Korean lines when EasyOCR has no Korean weights here and the page asks
   * for Korean; without it such lines are left as the English model read them.
   */
  korean?: OcrEngine;
}

/** One result of EasyOCR's `readtext(detail=1)`: the box's four corners, the text, confidence 0…1. */
export type EasyOcrResult = [corners: Corner[], text: string, confidence: number];

/**
 * EasyOCR in an engine process (`easyocr_server.py`, libs/engines) that loads its models once
 * and reads image after image. If the process dies, the pages it was reading fail and the next
 * page starts a new process. Without Korean weights, the lines of a page asked in Korean that
 * the English model cannot have read are read again by the `korean` engine, and the page's notes
 * say so.
 */
export class EasyOcrEngine implements OcrEngine {
  readonly name = 'easyocr';

  private static readonly probes = new Map<string, Promise<EngineState>>();

  private constructor(
    private readonly engine: PythonEngine,
    private readonly korean: OcrEngine | undefined,
  ) {}

  /** Starts the process and waits until its models are loaded; `engine_unavailable` when it cannot. */
  static async create(options: EasyOcrOptions): Promise<EasyOcrEngine> {
    try {
      return new EasyOcrEngine(await PythonEngine.create(engineOptions(options)), options.korean);
    } catch (error) {
      throw new DomainError('engine_unavailable', (error as Error).message, { cause: error });
    }
  }

  /**
   * The engine's state with this Python: a process is started, its ready line awaited (or its
   * failure, or the timeout) and stopped again. Asked once per Python and script.
   */
  static probe(python: string, script = easyOcrServerScript()): Promise<EngineState> {
    const key = `${python}\0${script}`;
    let state = EasyOcrEngine.probes.get(key);
    if (!state) {
      state = PythonEngine.create(engineOptions({ python, script })).then(
        async (engine) => {
          const ready = engine.state();
          await engine.close();
          return ready;
        },
        (error: Error) => ({
          name: 'easyocr',
          status: 'failed',
          info: null,
          restarts: 0,
          retries: 0,
          detail: error.message,
        }),
      );
      EasyOcrEngine.probes.set(key, state);
    }
    return state;
  }

  /** Whether the server starts with this Python (see `probe`). */
  static async available(python: string | undefined, script = easyOcrServerScript()): Promise<boolean> {
    return python !== undefined && (await EasyOcrEngine.probe(python, script)).status === 'ready';
  }

  /** The languages whose weights the engine loaded (EasyOCR's codes). */
  get languages(): string[] {
    return (this.engine.state().info?.languages as string[] | undefined) ?? ['en'];
  }

  async recognize(request: OcrRequest): Promise<OcrResult> {
    const { image, model, languages } = request;
    const wanted = easyOcrLanguages(languages);
    const installed = new Set(this.languages);
    const missing = wanted.filter((code) => !installed.has(code));
    const read = wanted.filter((code) => installed.has(code));
    const koreanNote = `Korean text read by ${this.korean?.name} (kor): EasyOCR has no Korean weights on this worker`;
    if (this.korean && missing.includes('ko') && request.pageLanguage === 'kor') {
      // A page in Korean: the English model reads none of it, the Korean engine reads it whole.
      const whole = await this.korean.recognize(request);
      return { ...whole, engine: 'easyocr', notes: [koreanNote, ...whole.notes] };
    }
    const budget = new ReadingBudget(request.deadline);
    const results = await budget.call(() =>
      this.engine.call<EasyOcrResult[]>({
        width: image.width,
        height: image.height,
        languages: read.length > 0 ? read : ['en'],
        image: image.data.toString('base64'),
      }),
    );
    let lines = toLines(results, image);
    const notes: string[] = [];
    if (missing.includes('ko') && this.korean) {
      // Lines the English model cannot have read (Korean on an area of a page, or what it read
      // poorly on a page in English) are read again by Tesseract, in the page's language when known.
      const regions = koreanRegions(lines, image.width, image.height);
      if (regions.length > 0) {
        const again = request.pageLanguage ? [request.pageLanguage] : languages;
        lines = await readRegions(this.korean, image, regions, model, lines, again, budget);
        notes.push(request.pageLanguage ? rereadNote(this.korean.name, regions.length, again) : koreanNote);
      }
    } else if (missing.length > 0) {
      notes.push(
        `EasyOCR has no weights for ${missing.join(', ')} on this worker: read with ${read.join(', ') || 'en'} only`,
      );
    }
    lines = orderLines(lines.filter((line) => line.text !== ''));
    return readingResult('easyocr', image, lines, notes, budget);
  }

  /** The engine's state, as the capabilities report it. */
  state(): EngineState {
    return this.engine.state();
  }

  /** The engine process's id, for tests that end it the hard way. */
  pid(): Promise<number | undefined> {
    return this.engine.pid();
  }

  async close(): Promise<void> {
    await this.engine.close();
    await this.korean?.close();
  }
}

function engineOptions(options: EasyOcrOptions) {
  return {
    name: 'easyocr',
    label: 'EasyOCR',
    python: options.python,
    script: options.script ?? easyOcrServerScript(),
    env: options.env ?? {},
    readyTimeoutMs: options.readyTimeoutMs,
  };
}

/** The server script of this repository, the same from the TypeScript sources and from `dist`. */
export function easyOcrServerScript(): string {
  return findAbove(__dirname, SERVER_SCRIPT);
}

/** EasyOCR's codes for the request's languages, always with English (every EasyOCR model pairs with it). */
export function easyOcrLanguages(languages: readonly string[]): string[] {
  return [...new Set(['en', ...languages.map((code) => EASYOCR_LANGUAGES[code] ?? code)])];
}

/**
 * EasyOCR's results as lines in the image's pixels, empty texts dropped. EasyOCR cuts a line
 * wherever a gap between words exceeds half its height (`& duck/goose,` `as` `12.5% of E-mail`):
 * pieces of one row closer than MAX_JOIN_GAP heights are joined back into one line, so that the
 * reading order does not take them for columns.
 */
export function toLines(results: readonly EasyOcrResult[], image: Pick<GreyImage, 'width' | 'height'>): OcrLine[] {
  const pieces = results
    .map(([corners, text, confidence]) =>
      lineFromText(text.trim(), boxAround(corners, image.width, image.height), confidence * 100),
    )
    .filter((line) => line.text !== '')
    .sort((a, b) => a.box.x - b.box.x);
  const lines: OcrLine[] = [];
  for (const piece of pieces) {
    const row = lines.find((line) => sameRow(line, piece));
    if (row) lines[lines.indexOf(row)] = joined(row, piece);
    else lines.push(piece);
  }
  return lines;
}

/** How far apart (in line heights) two pieces of one row may be and still be one line. */
const MAX_JOIN_GAP = 1.5;

/** Whether `piece` (further right) goes on `line`: they share most of their height, and little lies between. */
function sameRow(line: OcrLine, piece: OcrLine): boolean {
  const height = Math.min(line.box.height, piece.box.height);
  const overlap =
    Math.min(line.box.y + line.box.height, piece.box.y + piece.box.height) - Math.max(line.box.y, piece.box.y);
  const gap = piece.box.x - (line.box.x + line.box.width);
  return overlap >= height * 0.5 && gap <= Math.max(line.box.height, piece.box.height) * MAX_JOIN_GAP;
}

function joined(line: OcrLine, piece: OcrLine): OcrLine {
  const x = Math.min(line.box.x, piece.box.x);
  const y = Math.min(line.box.y, piece.box.y);
  const right = Math.max(line.box.x + line.box.width, piece.box.x + piece.box.width);
  const bottom = Math.max(line.box.y + line.box.height, piece.box.y + piece.box.height);
  const words = [...line.words, ...piece.words];
  return {
    text: `${line.text} ${piece.text}`,
    box: { x, y, width: right - x, height: bottom - y },
    confidence: words.reduce((sum, word) => sum + word.confidence, 0) / words.length,
    words,
  };
}
