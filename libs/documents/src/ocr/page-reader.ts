import {
  openOcrEngine,
  type GreyImage,
  type OcrEngine,
  type OcrEngineName,
  type OcrModelName,
  type OcrResult,
  type OcrSettings,
} from '@docconv/ocr';

/** How a job reads what has no text layer. */
export interface OcrOptions {
  engine: OcrEngineName;
  model: OcrModelName;
  /** Resolution scanned PDF pages are rendered at. */
  dpi: number;
  /** Tesseract language codes. */
  languages: string[];
  settings: OcrSettings;
}

/** Reads images with the job's engine, opened on the first image and kept for the rest of the file. */
export class PageReader {
  private engine?: Promise<OcrEngine>;

  constructor(readonly options: OcrOptions) {}

  async read(image: GreyImage): Promise<OcrResult> {
    this.engine ??= openOcrEngine(this.options.engine, this.options.settings);
    const engine = await this.engine;
    return engine.recognize({ image, model: this.options.model, languages: this.options.languages });
  }

  async close(): Promise<void> {
    const engine = this.engine;
    this.engine = undefined;
    if (engine) await (await engine).close();
  }
}
