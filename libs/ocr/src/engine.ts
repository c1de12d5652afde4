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
}

export interface OcrEngine {
  readonly name: OcrEngineName;
  recognize(request: OcrRequest): Promise<OcrResult>;
  /** Releases child processes or native sessions. */
  close(): Promise<void>;
}

/** Mean confidence of a result's words (0 when there are none). */
export function meanConfidence(lines: OcrLine[]): number {
  const words = lines.flatMap((l) => l.words);
  if (words.length === 0) return 0;
  return words.reduce((sum, w) => sum + w.confidence, 0) / words.length;
}

/** The box enclosing `boxes`. */
export function unionBox(boxes: Box[]): Box {
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}
