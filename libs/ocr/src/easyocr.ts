import { DomainError } from '@docconv/contracts';
import { findAbove, PythonEngine, type EngineState } from '@docconv/engines';
import { join } from 'node:path';
import {
  countCall,
  readingResult,
  ReadingTimeout,
  type GreyImage,
  type OcrEngine,
  type OcrLine,
  type OcrRequest,
  type OcrResult,
  type ReadingPass,
} from './engine';
import { koreanRegions, readRegions } from './korean-regions';
import type { TesseractEngine } from './tesseract';
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
  /** Threads the models may use per reading (ENGINE_THREADS of the process); 1 by default. */
  threads?: number;
  /** How long the process may take to load its models before it counts as failed. */
  readyTimeoutMs?: number;
  /**
   * Tesseract, opened beside it: it reads Korean (EasyOCR has no Korean weights here) and, for
   * premium, reads again the lines EasyOCR read doubtfully. Without it, EasyOCR's reading stands.
   */
  tesseract?: TesseractEngine;
}

/** One result of EasyOCR's `readtext(detail=1)`: the box's four corners, the text, confidence 0…1. */
export type EasyOcrResult = [corners: Corner[], text: string, confidence: number];

/**
 * EasyOCR in an engine process (`easyocr_server.py`, libs/engines) that loads its models once
 * and reads image after image. If the process dies, the pages it was reading fail and the next
 * page starts a new process. Without Korean weights, a page in Korean is read by Tesseract, and
 * so are the lines the English model cannot have read on a page whose language the probes could
 * not tell; the page's notes say so.
 *
 * `basic` is EasyOCR's reading. `premium` is both engines' readings reconciled line by line: every
 * line EasyOCR found is read again on its own by Tesseract's fast model (the lines stacked into one
 * image, one call), and each keeps the better reading (see reconcile). Lines are put in reading
 * order (orderLines) either way.
 */
export class EasyOcrEngine implements OcrEngine {
  readonly name = 'easyocr';

  private static readonly probes = new Map<string, Promise<EngineState>>();

  private constructor(
    private readonly engine: PythonEngine,
    private readonly tesseract: TesseractEngine | undefined,
  ) {}

  /** Starts the process and waits until its models are loaded; `engine_unavailable` when it cannot. */
  static async create(options: EasyOcrOptions): Promise<EasyOcrEngine> {
    try {
      return new EasyOcrEngine(await PythonEngine.create(engineOptions(options)), options.tesseract);
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
    const { image, model, languages, pageLanguage } = request;
    const wanted = easyOcrLanguages(languages);
    const installed = new Set(this.languages);
    const missing = wanted.filter((code) => !installed.has(code));
    const read = wanted.filter((code) => installed.has(code));
    const tesseract = this.tesseract;
    const koreanNote = `Korean text read by ${tesseract?.name} (kor): EasyOCR has no Korean weights on this worker`;
    if (tesseract && missing.includes('ko') && pageLanguage === 'kor') {
      // A page in Korean: the English model reads none of it, Tesseract reads it whole.
      const whole = await tesseract.recognize(request);
      return { ...whole, engine: 'easyocr', notes: [koreanNote, ...whole.notes] };
    }
    const pass: ReadingPass = { signal: request.signal, calls: 0 };
    const results = await countCall(pass, () =>
      this.engine
        .call<EasyOcrResult[]>(
          {
            width: image.width,
            height: image.height,
            languages: read.length > 0 ? read : ['en'],
            image: image.data.toString('base64'),
          },
          { signal: pass.signal },
        )
        .catch((error: unknown) => {
          throw pass.signal?.aborted ? new ReadingTimeout() : error;
        }),
    );
    let lines = toLines(results, image);
    const notes: string[] = [];
    if (tesseract && missing.includes('ko') && pageLanguage === undefined) {
      // The probes could not tell the page's language: lines the English model cannot have read
      // (Korean on an area of the page) are read again by Tesseract in the job's languages.
      const regions = koreanRegions(lines, image.width, image.height);
      if (regions.length > 0) {
        lines = await readRegions(tesseract, image, regions, model, lines, languages, pass);
        notes.push(koreanNote);
      }
    } else if (missing.length > 0 && !missing.every((code) => code === 'ko' && tesseract)) {
      notes.push(
        `EasyOCR has no weights for ${missing.join(', ')} on this worker: read with ${read.join(', ') || 'en'} only`,
      );
    }
    if (tesseract && model === 'premium') {
      const reread = await rereadLines(tesseract, image, lines, pageLanguage ? [pageLanguage] : languages, pass);
      lines = reread.lines;
      if (reread.replaced > 0)
        notes.push(`${reread.replaced} ${reread.replaced === 1 ? 'line' : 'lines'} read better by tesseract`);
    }
    lines = orderLines(lines.filter((line) => line.text !== ''));
    return readingResult('easyocr', image, lines, notes, pass.calls);
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
    await this.tesseract?.close();
  }
}

function engineOptions(options: EasyOcrOptions) {
  return {
    name: 'easyocr',
    label: 'EasyOCR',
    python: options.python,
    script: options.script ?? easyOcrServerScript(),
    env: { ENGINE_THREADS: String(options.threads ?? 1), ...options.env },
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
 * reading order does not take them for columns; never across a gutter (acrossGutter).
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
    const row = lines.find((line) => sameRow(line, piece) && !acrossGutter(line, piece, pieces));
    if (row) lines[lines.indexOf(row)] = joined(row, piece);
    else lines.push(piece);
  }
  return lines;
}

/** How far above and below a gap (in line heights) rows are looked at to tell a gutter. */
const GUTTER_REACH = 3.5;

/**
 * Whether the gap between `line` and `piece` (further right on its row) is a gutter between columns
 * rather than a space between words: at least two other rows within GUTTER_REACH line heights above
 * and below have text, and none of it covers the gap's middle. Words of one column leave no such
 * blank band (one short row, a paragraph's last line, is not enough to tell).
 */
function acrossGutter(line: OcrLine, piece: OcrLine, pieces: readonly OcrLine[]): boolean {
  const gap = (line.box.x + line.box.width + piece.box.x) / 2;
  const middle = line.box.y + line.box.height / 2;
  const reach = GUTTER_REACH * Math.max(line.box.height, piece.box.height);
  const neighbours = pieces.filter((other) => {
    const centre = other.box.y + other.box.height / 2;
    return Math.abs(centre - middle) <= reach && !levelWith(line, other) && !levelWith(piece, other);
  });
  // Rows, not pieces: two pieces side by side are one row.
  const rows = neighbours.filter((other, i) => !neighbours.slice(0, i).some((earlier) => levelWith(earlier, other)));
  return rows.length >= 2 && !neighbours.some((other) => other.box.x <= gap && gap <= other.box.x + other.box.width);
}

/** Whether two lines share most of their height (at least half the smaller one's): they stand on one row. */
function levelWith(a: OcrLine, b: OcrLine): boolean {
  const overlap = Math.min(a.box.y + a.box.height, b.box.y + b.box.height) - Math.max(a.box.y, b.box.y);
  return overlap >= Math.min(a.box.height, b.box.height) * 0.5;
}

/**
 * How far apart (in line heights) two pieces of one row may be and still be one line. Chosen on
 * scans outside the dev set, where 1.0 to 1.5 line heights read alike (similarity 0.965 to 0.961)
 * and 0.9 worse (0.959: the wide spaces of justified lines left open are read as columns); a
 * narrow gutter is about 1.5 line heights wide, and the detector's boxes vary with its scale, so
 * the middle of that range.
 */
const MAX_JOIN_GAP = 1.25;

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

/** The characters EasyOCR's English model can write (easyocr/config.py, english_g2). */
const ENGLISH_G2 = new Set(
  '0123456789!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~ €ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
);

/**
 * Premium's second reading: every line read again by Tesseract's fast model (each on its own, one
 * call for them all), and each line made from the better of the two readings (reconcile). The fast
 * model, not the best: on the dev set's scans and outside them the reconciled lines read alike with
 * either (similarity 0.962 both; outside 0.932 vs 0.933), and the best model took as long again as
 * EasyOCR itself.
 */
async function rereadLines(
  tesseract: TesseractEngine,
  image: GreyImage,
  lines: readonly OcrLine[],
  languages: string[],
  pass: ReadingPass,
): Promise<{ lines: OcrLine[]; replaced: number }> {
  if (lines.length === 0) return { lines: [], replaced: 0 };
  const again = await countCall(pass, () =>
    tesseract.readBoxes(
      image,
      lines.map((line) => line.box),
      'basic', // the fast model: see above
      languages,
      pass.signal,
    ),
  );
  let replaced = 0;
  const out = lines.map((line, i) => {
    const other = again[i];
    const better = other ? reconcile(line, other) : line;
    if (better === line) return line;
    replaced++;
    // Where the line stands and how tall its type is are the detector's, as for every other line:
    // the reading order and the headings (type larger than the body's) are read from them.
    const words = better.words.map((word) => ({
      ...word,
      box: { ...word.box, y: line.box.y, height: line.box.height },
    }));
    return { ...better, box: line.box, words, paragraph: line.paragraph };
  });
  return { lines: out, replaced };
}

/**
 * The better of EasyOCR's and Tesseract's readings of one line: Tesseract's when it is the more
 * confident; else EasyOCR's, where each word whose Tesseract reading holds letters EasyOCR's model
 * cannot write (accents, ß) and is the same word once those are set aside takes Tesseract's
 * spelling (EasyOCR wrote the nearest letters it has: `Größe` as `GroBe`). Words are paired only
 * when both readings have as many.
 */
export function reconcile(easy: OcrLine, tesseract: OcrLine): OcrLine {
  if (tesseract.confidence > easy.confidence) return tesseract;
  if (tesseract.words.length !== easy.words.length) return easy;
  let changed = false;
  const words = easy.words.map((word, i) => {
    const other = tesseract.words[i];
    const foreign = [...other.text].some((char) => /\p{L}/u.test(char) && !ENGLISH_G2.has(char));
    if (!foreign || !sameOnceFolded(word.text, other.text)) return word;
    changed = true;
    return { ...word, text: other.text };
  });
  return changed ? { ...easy, words, text: words.map((word) => word.text).join(' ') } : easy;
}

/** Whether two readings agree once both are written with EasyOCR's letters only (accents dropped, case aside). */
function sameOnceFolded(a: string, b: string): boolean {
  const fold = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/ß/g, 'b')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
  const [x, y] = [fold(a), fold(b)];
  const longest = Math.max(x.length, y.length);
  return longest > 0 && levenshtein(x, y) <= longest * 0.1;
}

/** Unit-cost edit distance of two short strings. */
function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
