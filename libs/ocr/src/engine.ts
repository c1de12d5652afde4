/**
 * The OCR engine interface: an image in, words and lines with their boxes and confidence out.
 * Engines know nothing of jobs, PDFs or Markdown; layout (columns, paragraphs, headings) is
 * built from their lines by `ocr-layout.ts`.
 */

/** The engine names of the API (spec 2.2). */
export type OcrEngineName = 'tesseract' | 'easyocr' | 'rapidocr';
export const OCR_ENGINE_NAMES: readonly OcrEngineName[] = ['tesseract', 'easyocr', 'rapidocr'];

/** `basic`: fast models. `premium`: the best models the engine has, preprocessing when confidence is low. */
export type OcrModelName = 'basic' | 'premium';

/** Axis-aligned box in image pixels, origin top-left. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface OcrWord {
  text: string;
  box: Box;
  /** 0…100. */
  confidence: number;
  /**
   * The pieces the engine read the word in, when it reads a script piece by piece (Tesseract reads
   * Hangul a syllable at a time); their texts joined make the word's.
   */
  parts?: OcrWord[];
}

export interface OcrLine {
  text: string;
  box: Box;
  /** 0…100: the mean of the words'. */
  confidence: number;
  words: OcrWord[];
  /**
   * The engine's own grouping of lines into blocks/paragraphs, when it has one (Tesseract's
   * block and paragraph numbers). Lines with the same key belong to one paragraph.
   */
  paragraph?: string;
}

/** An image for OCR: 8-bit greyscale pixels, one byte per pixel, rows top to bottom. */
export interface GreyImage {
  width: number;
  height: number;
  data: Buffer;
}

export interface OcrRequest {
  image: GreyImage;
  model: OcrModelName;
  /** Tesseract language codes, e.g. ['eng', 'kor']. Engines without a language map ignore them. */
  languages: string[];
  /**
   * The one of `languages` the page is written in, when known (a probe of the page read it best,
   * see orientation.ts): engines that read by language read the page in it rather than in all of
   * them at once.
   */
  pageLanguage?: string;
  /**
   * The page's safety valve: aborted when the page has taken longer than any page should, whatever
   * the machine's load. The call in hand is stopped (its process killed) and the reading rejects
   * with ReadingTimeout. No reading decision depends on it: an engine makes the same passes with
   * or without it, and a reading is either whole or not delivered.
   */
  signal?: AbortSignal;
  /**
   * The page is read on a guess (the previous page's way up and language): below this confidence
   * (0…100) the first reading says the guess was wrong, and the engine returns it marked `unsure`
   * without further passes. Engines without passes of their own may ignore it.
   */
  giveUpBelow?: number;
}

export interface OcrResult {
  /** The engine that read the image (an engine may hand Korean text to another: see `notes`). */
  engine: OcrEngineName;
  width: number;
  height: number;
  lines: OcrLine[];
  /** Mean word confidence, 0…100 (0 when nothing was read). */
  confidence: number;
  /** Short facts about how the page was read, e.g. "Korean text read by tesseract (kor)". */
  notes: string[];
  /** Recognition calls made (page readings, regions read again). */
  calls: number;
  /** The first reading fell below the request's `giveUpBelow`: no further pass was made. */
  unsure?: boolean;
}

export interface OcrEngine {
  readonly name: OcrEngineName;
  recognize(request: OcrRequest): Promise<OcrResult>;
  /** Releases child processes or native sessions. */
  close(): Promise<void>;
}

/**
 * Mean confidence of a result's characters: each word's confidence weighted by its length, so a
 * long word read well counts for more than a stray mark (0 when nothing was read).
 */
export function meanConfidence(lines: readonly OcrLine[]): number {
  return characterConfidence(lines.flatMap((l) => l.words));
}

/** The mean confidence of words' characters (see meanConfidence). */
export function characterConfidence(words: readonly OcrWord[]): number {
  const characters = words.reduce((sum, w) => sum + [...w.text].length, 0);
  if (characters === 0) return 0;
  return words.reduce((sum, w) => sum + w.confidence * [...w.text].length, 0) / characters;
}

/** A reading stopped because its page's safety deadline passed (the request's `signal`). */
export class ReadingTimeout extends Error {
  constructor(reason = 'the page took longer than a page may take') {
    super(reason);
    this.name = 'ReadingTimeout';
  }
}

/** The recognition calls of one page's reading, and the request's safety valve they all obey. */
export interface ReadingPass {
  signal?: AbortSignal;
  calls: number;
}

/** One recognition call of a reading, counted; it rejects with ReadingTimeout once the page's safety valve has fired. */
export async function countCall<T>(pass: ReadingPass, call: () => Promise<T>): Promise<T> {
  if (pass.signal?.aborted) throw new ReadingTimeout();
  pass.calls++;
  return call();
}

/** A finished reading of `image`: its lines, their mean confidence, and the recognition calls it took. */
export function readingResult(
  engine: OcrEngineName,
  image: { width: number; height: number },
  lines: OcrLine[],
  notes: string[],
  calls: number,
): OcrResult {
  return {
    engine,
    width: image.width,
    height: image.height,
    lines,
    confidence: meanConfidence(lines),
    notes,
    calls,
  };
}

/** The box enclosing `boxes`. */
export function unionBox(boxes: Box[]): Box {
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}
