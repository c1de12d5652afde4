import { DomainError } from '@docconv/contracts';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import {
  characterConfidence,
  meanConfidence,
  countCall,
  readingResult,
  ReadingTimeout,
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
import { tessdataFolder } from './tessdata';

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

/** A Hangul syllable: a piece holding one is Korean the Korean model reads well. */
const SYLLABLE = /[\uac00-\ud7a3]/;
/** Below this confidence a piece of Latin letters, figures or lone jamo is read again. */
const DOUBTFUL_BELOW = 85;
/** A piece read again replaces the Korean model's reading only when read at least this surely. */
const SURE_PIECE = 70;

/**
 * The runs of a word's pieces that hold no Hangul syllable (Latin letters, figures, punctuation,
 * lone jamo: what the Korean model makes of Latin) and that it read with less than DOUBTFUL_BELOW
 * confidence: `start` and `end` index the pieces, `box` is theirs. Runs are listed last first.
 */
export function doubtfulRuns(word: OcrWord): { start: number; end: number; box: Box; confidence: number }[] {
  const parts = word.parts ?? [word];
  const runs: { start: number; end: number; box: Box; confidence: number }[] = [];
  let start = -1;
  const close = (end: number) => {
    const pieces = parts.slice(start, end);
    const confidence = characterConfidence(pieces);
    if (confidence < DOUBTFUL_BELOW && /[\p{L}\p{N}]/u.test(pieces.map((p) => p.text).join(''))) {
      runs.push({ start, end, box: unionBox(pieces.map((p) => p.box)), confidence });
    }
    start = -1;
  };
  for (const [i, part] of parts.entries()) {
    if (SYLLABLE.test(part.text)) {
      if (start >= 0) close(i);
    } else if (start < 0) start = i;
  }
  if (start >= 0) close(parts.length);
  return runs.reverse();
}

/**
 * A line of a Korean reading that looks like another script read by the Korean model: read with
 * less than DOUBTFUL_BELOW confidence, with at least four letters or figures of which fewer than
 * half are Hangul syllables (a Latin line comes out of the Korean model as figures, jamo and
 * stray syllables). Lines of Korean text, even with figures and Latin words among them, are
 * mostly syllables; their Latin pieces are mended on their own (doubtfulRuns).
 */
export function foreignLine(line: OcrLine): boolean {
  if (line.confidence >= DOUBTFUL_BELOW) return false;
  const signs = [...line.text].filter((c) => /[\p{L}\p{N}]/u.test(c));
  const syllables = signs.filter((c) => SYLLABLE.test(c)).length;
  return signs.length >= 4 && syllables < signs.length / 2;
}

/** Margin around each piece, and white between pieces, in the stacked image. */
const PIECE_MARGIN = 6;

/**
 * The pieces of an image at `boxes`, each with a white margin, stacked top to bottom in one image;
 * `slots` says where each piece lies in it.
 */
export function stackPieces(
  image: GreyImage,
  boxes: readonly Box[],
): { image: GreyImage; slots: { top: number; bottom: number }[] } {
  const width = Math.max(...boxes.map((b) => b.width)) + 2 * PIECE_MARGIN;
  const height = boxes.reduce((sum, b) => sum + b.height + 2 * PIECE_MARGIN, 0);
  const data = Buffer.alloc(width * height, 255);
  const slots: { top: number; bottom: number }[] = [];
  let top = 0;
  for (const box of boxes) {
    for (let row = 0; row < box.height; row++) {
      const y = box.y + row;
      if (y < 0 || y >= image.height) continue;
      const from = y * image.width + Math.max(0, box.x);
      const to = y * image.width + Math.min(image.width, box.x + box.width);
      image.data.copy(data, (top + PIECE_MARGIN + row) * width + PIECE_MARGIN, from, to);
    }
    slots.push({ top, bottom: top + box.height + 2 * PIECE_MARGIN });
    top += box.height + 2 * PIECE_MARGIN;
  }
  return { image: { width, height, data }, slots };
}

/**
 * Each line of a reading, or the line of another reading of the same page that lies in the same
 * place (overlapping most of it, about as wide) when that one was read with more confidence.
 */
export function surerLines(
  lines: readonly OcrLine[],
  others: readonly OcrLine[],
): { lines: OcrLine[]; replaced: number } {
  let replaced = 0;
  const out = lines.map((line) => {
    const rival = others.find((other) => samePlace(line.box, other.box));
    if (!rival || rival.confidence <= line.confidence) return line;
    replaced++;
    return { ...rival, paragraph: line.paragraph };
  });
  return { lines: out, replaced };
}

function samePlace(a: Box, b: Box): boolean {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (width <= 0 || height <= 0) return false;
  const smaller = Math.min(a.width * a.height, b.width * b.height);
  return width * height >= smaller * 0.6 && Math.abs(a.width - b.width) <= 0.2 * Math.max(a.width, b.width);
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

/**
 * One reading by the native program, which writes both its TSV (word boxes and confidences) and
 * its plain text, whose spaces are Tesseract's own judgement of where words end (see parseTsv).
 */
async function readNative(
  pgm: Buffer,
  psm: number,
  model: OcrRequest['model'],
  languages: string[],
  signal?: AbortSignal,
): Promise<OcrLine[]> {
  const folder = await mkdtemp(join(tmpdir(), 'docconv-tesseract-'));
  try {
    const base = join(folder, 'page');
    const args = ['stdin', base, '-l', languages.join('+'), '--psm', String(psm)];
    if (model === 'premium') args.push('--tessdata-dir', await tessdataFolder('best', 'plain'));
    args.push('-c', 'preserve_interword_spaces=1', '-c', 'tessedit_create_tsv=1', '-c', 'tessedit_create_txt=1');
    await run(args, pgm, signal);
    const [tsv, text] = await Promise.all([readFile(`${base}.tsv`, 'utf8'), readFile(`${base}.txt`, 'utf8')]);
    return parseTsv(tsv, text);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * How confidently the native program's fast model for one language reads an image as a block of
 * text (page segmentation mode 6): its words' characters' mean confidence, and how many
 * characters it read. Used to tell a page's way up and language (orientation.ts).
 */
export async function probeConfidence(
  image: GreyImage,
  language: string,
  signal?: AbortSignal,
): Promise<{ confidence: number; characters: number }> {
  const tsv = await run(
    ['stdin', 'stdout', '-l', language, '--psm', '6', '-c', 'tessedit_create_tsv=1'],
    toPgm(image),
    signal,
  );
  const words = parseTsv(tsv).flatMap((line) => line.words);
  return {
    confidence: characterConfidence(words),
    characters: words.reduce((n, w) => n + [...w.text].length, 0),
  };
}

/** Runs the native program on `input`; once `signal` aborts, the program is killed and the run rejects with ReadingTimeout. */
function run(args: string[], input: Buffer, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ReadingTimeout());
    const child = spawn('tesseract', args, { env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
    let stopped = false;
    const stop = () => {
      stopped = true;
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', stop, { once: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (error: NodeJS.ErrnoException) => {
      signal?.removeEventListener('abort', stop);
      reject(
        error.code === 'ENOENT'
          ? new DomainError('engine_unavailable', 'The tesseract program is not installed on this worker.')
          : error,
      );
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', stop);
      if (stopped) reject(new ReadingTimeout());
      else if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else
        reject(new Error(`tesseract exited with ${code}: ${Buffer.concat(err).toString('utf8').trim().slice(0, 200)}`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** A word of Tesseract's output, with whether a space stands before it in Tesseract's text (undefined: unknown). */
interface TsvWord extends OcrWord {
  spaced?: boolean;
}

/**
 * Lines from Tesseract's TSV output: word rows (level 5) grouped by block, paragraph and line
 * number, in the order Tesseract read them. Tesseract reports Hangul and CJK one syllable per
 * "word"; its plain `text` output of the same reading, when given, says which of them it wrote
 * together, and those become one word. Without it, syllables that touch are joined (lineText).
 */
export function parseTsv(tsv: string, text?: string): OcrLine[] {
  const lines = new Map<string, { paragraph: string; words: TsvWord[] }>();
  const order: TsvWord[] = [];
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t');
    if (cells.length < 12 || cells[0] !== '5') continue;
    const word = cells.slice(11).join('\t').trim();
    const confidence = Number(cells[10]);
    if (word === '' || confidence < 0) continue;
    const [block, paragraph, line] = [cells[2], cells[3], cells[4]];
    const key = `${block}.${paragraph}.${line}`;
    let entry = lines.get(key);
    if (!entry) lines.set(key, (entry = { paragraph: `${block}.${paragraph}`, words: [] }));
    const parsed: TsvWord = {
      text: word,
      confidence,
      box: { x: Number(cells[6]), y: Number(cells[7]), width: Number(cells[8]), height: Number(cells[9]) },
    };
    entry.words.push(parsed);
    order.push(parsed);
  }
  if (text !== undefined) markSpaces(order, text);
  return [...lines.values()].map(({ paragraph, words }) => toLine(words, paragraph));
}

/**
 * Sets each word's `spaced` from Tesseract's text, which holds the same words in the same order:
 * whether whitespace stands between it and the word before. A word the text does not hold where
 * expected (it never should) leaves the rest of its line to the geometry.
 */
function markSpaces(words: TsvWord[], text: string): void {
  let cursor = 0;
  for (const word of words) {
    let at = cursor;
    while (at < text.length && /\s/.test(text[at])) at++;
    if (text.startsWith(word.text, at)) {
      word.spaced = at > cursor;
      cursor = at + word.text.length;
      continue;
    }
    const found = text.indexOf(word.text, cursor);
    if (found >= 0 && found - cursor < 200) cursor = found + word.text.length;
  }
}

/** Hangul and CJK: scripts Tesseract splits into one "word" per syllable or character. */
const CJK = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * Whether a space stands between two of Tesseract's words on a line of the given height when
 * its text does not say: Latin words always; Korean (and CJK) syllables only where the gap
 * between them is as wide as a real space (a quarter of the line's height).
 */
function spaceBetween(previous: OcrWord, word: OcrWord, height: number): boolean {
  const gap = word.box.x - (previous.box.x + previous.box.width);
  return !(CJK.test(previous.text.slice(-1)) && CJK.test(word.text[0]) && gap < height * 0.25);
}

/** A line's text from its words, by the geometry alone (see spaceBetween). */
export function lineText(words: OcrWord[]): string {
  const height = Math.max(...words.map((w) => w.box.height));
  return words.reduce(
    (text, word, i) =>
      i === 0 || !spaceBetween(words[i - 1], word, height) ? text + word.text : `${text} ${word.text}`,
    '',
  );
}

/**
 * A line from Tesseract's words: those written together become one word (its box the union,
 * its confidence the characters' mean), so that what follows sees the words of the page.
 */
function toLine(parts: TsvWord[], paragraph?: string): OcrLine {
  const height = Math.max(...parts.map((w) => w.box.height));
  const groups: TsvWord[][] = [];
  for (const [i, part] of parts.entries()) {
    const spaced = i === 0 || (part.spaced ?? spaceBetween(parts[i - 1], part, height));
    if (spaced) groups.push([part]);
    else groups[groups.length - 1].push(part);
  }
  const tall = tallerThanTheLine(parts);
  const words: OcrWord[] = groups.map((group) => ({
    text: group.map((w) => w.text).join(''),
    box: wordBox(group, tall),
    confidence: characterConfidence(group),
    ...(group.length > 1 ? { parts: group.map(({ text, box, confidence }) => ({ text, box, confidence })) } : {}),
  }));
  return {
    text: words.map((w) => w.text).join(' '),
    box: unionBox(words.map((w) => w.box)),
    confidence: characterConfidence(words),
    words,
    paragraph,
  };
}

/**
 * Tesseract now and then gives a syllable a box reaching into the next line. Such a box (over
 * 1.6 times the line's median height) says nothing about the word's height.
 */
function tallerThanTheLine(parts: readonly OcrWord[]): (part: OcrWord) => boolean {
  const heights = parts.map((w) => w.box.height).sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)];
  return (part) => part.box.height > median * 1.6;
}

/** A word's box from its parts: their union, heights from the parts that are not too tall when there are such. */
function wordBox(group: readonly OcrWord[], tall: (part: OcrWord) => boolean): Box {
  const across = unionBox(group.map((w) => w.box));
  const measured = group.filter((w) => !tall(w));
  if (measured.length === 0 || measured.length === group.length) return across;
  const down = unionBox(measured.map((w) => w.box));
  return { x: across.x, y: down.y, width: across.width, height: down.height };
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

  async read(
    pgm: Buffer,
    psm: number,
    model: OcrRequest['model'],
    languages: string[],
    signal?: AbortSignal,
  ): Promise<OcrLine[]> {
    const key = `${model}:${languages.join('+')}`;
    const worker = await this.worker(key, model, languages);
    await worker.setParameters({ tessedit_pageseg_mode: String(psm), preserve_interword_spaces: '1' });
    // A reading stopped by the page's safety valve ends its worker, which cannot be interrupted otherwise.
    const { data } = await untilAborted(worker.recognize(pgm, {}, { blocks: true, text: false }), signal, () => {
      this.workers.delete(key);
      void worker.terminate();
    });
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

  private worker(key: string, model: OcrRequest['model'], languages: string[]): Promise<WasmWorker> {
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

/** `work`, or a ReadingTimeout as soon as `signal` aborts (after `stop` has been called). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined, stop: () => void): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    stop();
    return Promise.reject(new ReadingTimeout());
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      stop();
      reject(new ReadingTimeout());
    };
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
