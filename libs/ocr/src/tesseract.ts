import sharp from 'sharp';
import {
  characterConfidence,
  meanConfidence,
  countCall,
  readingResult,
  unionBox,
  type Box,
  type GreyImage,
  type OcrEngine,
  type OcrLine,
  type OcrRequest,
  type OcrResult,
  type OcrWord,
  type ReadingPass,
} from './engine';
import { nativeAvailable, readNative, toPgm } from './tesseract-native';
import { doubtfulRuns, foreignLine, PIECE_MARGIN, stackPieces, SURE_PIECE, surerLines } from './tesseract-pieces';
import { WasmReader } from './tesseract-wasm';

/** Below this mean confidence a page is read again in page segmentation mode 4. */
const RETRY_BELOW = 90;
/** Below this mean confidence the premium model also tries a cleaned-up (binarised) image. */
const PREPROCESS_BELOW = 75;
/**
 * A line whose characters average below this confidence is marks, not text: a logo, a rule, a
 * picture's texture or speckle read as letters. Text the engine really reads, even on a degraded
 * scan, stays well above it (body lines of the dev set's scans: 80–97).
 */
export const NOISE_BELOW = 50;

type Reader = (
  pgm: Buffer,
  psm: number,
  model: OcrRequest['model'],
  languages: string[],
  signal?: AbortSignal,
) => Promise<OcrLine[]>;

interface Reading {
  lines: OcrLine[];
  confidence: number;
  /** The page segmentation mode it was read in. */
  psm: number;
  /** The image read, when it is not the request's own (a binarised copy). */
  source?: GreyImage;
}

/**
 * Tesseract. The native program from Debian runs as one child process per reading, with one
 * OpenMP thread, the image on stdin as PGM and interword spaces preserved. Page segmentation
 * mode 3 first; below a mean confidence of 90 the page is read again in mode 4 (one column of
 * text of varying sizes) and the better reading kept. `basic` uses Debian's fast models;
 * `premium` the `best_int` models from the npm data packages, and retries a low-confidence page
 * on a binarised copy. Which passes are made depends on the readings alone, never on time. Lines
 * of marks rather than text (NOISE_BELOW) are left out. Without the native program, tesseract.js
 * reads with the same models.
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
      (pgm, psm, model, languages, signal) => wasm.read(pgm, psm, model, languages, signal),
      () => wasm.close(),
      'wasm',
    );
  }

  async recognize({ image, model, languages, pageLanguage, signal, giveUpBelow }: OcrRequest): Promise<OcrResult> {
    const langs = languages.length > 0 ? languages : ['eng'];
    const main = pageLanguage && langs.includes(pageLanguage) ? [pageLanguage] : langs;
    const pass: ReadingPass = { signal, calls: 0 };
    const pgm = toPgm(image);
    const first = reading(await this.readOnce(pass, pgm, 3, model, main), 3);
    if (giveUpBelow !== undefined && !sureReading(first.lines, giveUpBelow)) {
      return { ...readingResult('tesseract', image, textLines(first.lines), [], pass.calls), unsure: true };
    }
    let best = await this.readBest(first, pgm, model, main, pass);
    if (model === 'premium' && best.confidence < PREPROCESS_BELOW && best.lines.length > 0) {
      // Binarising rescues faded or uneven scans and can hurt clean pages: keep the better.
      const binarised = await binarise(image);
      const cleanedPgm = toPgm(binarised);
      const cleaned = await this.readBest(
        reading(await this.readOnce(pass, cleanedPgm, 3, model, main), 3),
        cleanedPgm,
        model,
        main,
        pass,
      );
      if (cleaned.confidence > best.confidence) best = { ...cleaned, source: binarised };
    }
    const notes: string[] = [];
    if (model === 'premium' && pageLanguage === 'kor') {
      // Korean pages carry Latin words and figures (KSLV-2, HWPML, 600km, 09:00) the Korean model
      // misreads: when it read a line as if it were not Korean (see foreignLine), the page is read in
      // the job's other languages too, each line kept from the surer reading; and the doubtful Latin
      // and figure pieces inside Korean lines are read again alone.
      const page = best.source ?? image;
      for (const other of langs.filter((code) => code !== 'kor')) {
        const korean = new Set(best.lines);
        if (best.lines.some(foreignLine)) {
          const second = await this.readOnce(pass, toPgm(page), best.psm, model, [other]);
          const { lines, replaced } = surerLines(best.lines, second);
          best = { ...best, lines };
          if (replaced > 0) notes.push(`${replaced} ${replaced === 1 ? 'line' : 'lines'} read better in ${other}`);
        }
        const mended = await this.mendPieces(page, best.lines, korean, model, other, pass);
        best = { ...best, lines: mended.lines };
        if (mended.count > 0)
          notes.push(
            `${mended.count} Latin or figure ${mended.count === 1 ? 'piece' : 'pieces'} read again in ${other}`,
          );
      }
    }
    const text = textLines(best.lines);
    const marks = best.lines.length - text.length;
    if (marks > 0) notes.push(`${marks} ${marks === 1 ? 'line' : 'lines'} of marks that are not text left out`);
    return readingResult('tesseract', image, text, notes, pass.calls);
  }

  close(): Promise<void> {
    return this.release();
  }

  /** The better of a page's reading in mode 3 (`first`) and, when that one is doubtful, in mode 4. */
  private async readBest(
    first: Reading,
    pgm: Buffer,
    model: OcrRequest['model'],
    languages: string[],
    pass: ReadingPass,
  ): Promise<Reading> {
    if (first.confidence >= RETRY_BELOW) return first;
    const second = reading(await this.readOnce(pass, pgm, 4, model, languages), 4);
    return second.confidence > first.confidence ? second : first;
  }

  /**
   * The doubtful pieces of the lines the Korean model read (`korean`; see doubtfulRuns) cut out,
   * stacked one under another in a single image and read in `language` in one call; each piece
   * read surely there (SURE_PIECE), and more surely than before, replaces the Korean model's
   * reading of it within its word.
   */
  private async mendPieces(
    image: GreyImage,
    lines: readonly OcrLine[],
    korean: ReadonlySet<OcrLine>,
    model: OcrRequest['model'],
    language: string,
    pass: ReadingPass,
  ): Promise<{ lines: OcrLine[]; count: number }> {
    const runs = lines.flatMap((line, l) =>
      korean.has(line) ? line.words.flatMap((word, w) => doubtfulRuns(word).map((run) => ({ l, w, ...run }))) : [],
    );
    if (runs.length === 0) return { lines: [...lines], count: 0 };
    // A glyph's edge may stand a pixel or two outside its piece's box: the cut takes two more each side.
    const stack = stackPieces(
      image,
      runs.map(({ box }) => ({
        ...box,
        x: Math.max(0, box.x - 2),
        width: Math.min(image.width, box.x + box.width + 2) - Math.max(0, box.x - 2),
      })),
    );
    const read = await this.readOnce(pass, toPgm(stack.image), 6, model, [language]);
    const mended = lines.map((line) => ({ ...line, words: [...line.words] }));
    let count = 0;
    for (const [i, run] of runs.entries()) {
      const slot = stack.slots[i];
      const found = read.filter((line) => {
        const middle = line.box.y + line.box.height / 2;
        return middle >= slot.top && middle < slot.bottom;
      });
      const text = found.map((line) => line.text).join(' ');
      const confidence = meanConfidence(found);
      if (text === '' || /\s/.test(text) || confidence < SURE_PIECE || confidence <= run.confidence) continue;
      const word = mended[run.l].words[run.w];
      const parts = word.parts ?? [word];
      const replaced: OcrWord = { text, box: run.box, confidence };
      const next = [...parts.slice(0, run.start), replaced, ...parts.slice(run.end)];
      mended[run.l].words[run.w] = {
        ...word,
        text: next.map((p) => p.text).join(''),
        confidence: characterConfidence(next),
        parts: next,
      };
      count++;
    }
    // Runs of one word come last first (doubtfulRuns), so a replacement leaves the indices of the rest right.
    return {
      lines: mended.map((line) => ({
        ...line,
        text: line.words.map((w) => w.text).join(' '),
        confidence: characterConfidence(line.words),
      })),
      count,
    };
  }

  /**
   * Each box of `image` read on its own as a block of text (mode 6): the boxes stacked one under
   * another in a single image and read in one call, the words of each slot moved back to the page
   * and joined into one line; null where nothing was read. Lines of marks (NOISE_BELOW) are left
   * out, as in a page's reading.
   */
  async readBoxes(
    image: GreyImage,
    boxes: readonly Box[],
    model: OcrRequest['model'],
    languages: string[],
    signal?: AbortSignal,
  ): Promise<(OcrLine | null)[]> {
    if (boxes.length === 0) return [];
    const stack = stackPieces(image, boxes);
    const pass: ReadingPass = { signal, calls: 0 };
    const read = textLines(await this.readOnce(pass, toPgm(stack.image), 6, model, languages));
    return boxes.map((box, i) => {
      const slot = stack.slots[i];
      const found = read.filter((line) => {
        const middle = line.box.y + line.box.height / 2;
        return middle >= slot.top && middle < slot.bottom;
      });
      if (found.length === 0) return null;
      const dx = box.x - PIECE_MARGIN;
      const dy = box.y - slot.top - PIECE_MARGIN;
      const words = found.flatMap((line) =>
        line.words.map((word) => ({ ...word, box: { ...word.box, x: word.box.x + dx, y: word.box.y + dy } })),
      );
      return {
        text: words.map((word) => word.text).join(' '),
        box: unionBox(words.map((word) => word.box)),
        confidence: characterConfidence(words),
        words,
      };
    });
  }

  /** One recognition call of the page's reading (see countCall). */
  private readOnce(
    pass: ReadingPass,
    pgm: Buffer,
    psm: number,
    model: OcrRequest['model'],
    languages: string[],
  ): Promise<OcrLine[]> {
    return countCall(pass, () => this.read(pgm, psm, model, languages, pass.signal));
  }
}

/**
 * A reading's lines and the confidence of all of them: a reading that splits lines into fragments
 * it reads poorly scores below one that reads them whole, even when what survives the marks'
 * filter reads well.
 */
function reading(lines: OcrLine[], psm: number): Reading {
  return { lines, confidence: meanConfidence(lines), psm };
}

/**
 * Whether a reading is sure at `threshold`: its text lines (NOISE_BELOW) hold most of what it read
 * (four characters in five) and are read with at least that confidence, the measure a page's result
 * reports. Read in the wrong language or upside down, most lines fall among the marks.
 */
export function sureReading(lines: readonly OcrLine[], threshold: number): boolean {
  const text = textLines(lines);
  const characters = (some: readonly OcrLine[]) => some.reduce((n, line) => n + [...line.text].length, 0);
  return characters(text) >= 0.8 * characters(lines) && meanConfidence(text) >= threshold;
}

/** The lines that are text rather than marks (see NOISE_BELOW). */
export function textLines(lines: readonly OcrLine[]): OcrLine[] {
  return lines.filter((line) => line.confidence >= NOISE_BELOW);
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
