import {
  detectOrientation,
  openOcrEngine,
  rotate,
  skewWhenTurned,
  turn,
  type GreyImage,
  type OcrEngine,
  type OcrEngineName,
  type OcrModelName,
  type OcrResult,
  type OcrSettings,
  type PageOrientation,
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
  /**
   * Seconds a page may take: further passes start only within it, and a page that used it up
   * keeps the best reading so far, marked low-confidence. Default PAGE_BUDGET_SECONDS.
   */
  pageBudgetSeconds?: number;
}

/** The default time a page may take (OCR_PAGE_BUDGET_SECONDS). */
export const PAGE_BUDGET_SECONDS = 10;

/** Below this confidence a page's reading is marked low-confidence. */
export const LOW_CONFIDENCE_BELOW = 70;

/**
 * A page read with at least this confidence settles which way up the file's pages lie and what
 * they are written in: the next page is read so straight away, its probes skipped, unless its
 * first reading falls below this (upside-down text and another script read far below it).
 */
export const SURE_READING = 85;

/** A whole page's reading: the engine's result, turned upright first, with how long it took. */
export interface PageReading extends OcrResult {
  seconds: number;
  /** The reading is poor (confidence under LOW_CONFIDENCE_BELOW) or the page's time ran out. */
  lowConfidence: boolean;
}

/** Reads images with the job's engine, opened on the first image and kept for the rest of the file. */
export class PageReader {
  private engine?: Promise<OcrEngine>;
  /** The way up and language of the last page, when it was read surely (SURE_READING). */
  private settled?: Pick<PageOrientation, 'turn' | 'language'>;

  constructor(readonly options: OcrOptions) {}

  /** Reads part of a page (an area without a readable text layer) as it stands, in the job's languages. */
  async read(image: GreyImage): Promise<OcrResult> {
    return (await this.open()).recognize({ image, model: this.options.model, languages: this.options.languages });
  }

  /**
   * Reads a whole page: turned upright when it lies sideways or upside down, straightened when
   * its lines are skewed (libs/ocr MIN_SKEW_DEGREES or more), read in the language its probe read best
   * (libs/ocr orientation.ts), within the page's time budget. Once a page of the file has been read
   * surely (SURE_READING), Tesseract reads the next one the same way up and in the same language
   * without probing it first; a first reading below SURE_READING sends the page through the probes.
   * Orientation counts against the budget; the engine makes at least its first reading, and no
   * call runs past the deadline by more than CALL_GRACE_MS.
   */
  async readPage(image: GreyImage): Promise<PageReading> {
    // The page's time starts once its engine is up: starting one (EasyOCR loads torch) is the file's cost.
    const engine = await this.open();
    const started = Date.now();
    const budget = (this.options.pageBudgetSeconds ?? PAGE_BUDGET_SECONDS) * 1000;
    const request = {
      model: this.options.model,
      languages: this.options.languages,
      deadline: started + budget,
    };
    let orientation: Pick<PageOrientation, 'turn' | 'skew' | 'language'> | undefined;
    let result: OcrResult | undefined;
    let abandoned = 0;
    const guess = this.options.engine === 'tesseract' ? this.settled : undefined;
    if (guess) {
      orientation = { ...guess, skew: await skewWhenTurned(image, guess.turn) };
      result = await engine.recognize({
        ...request,
        image: await upright(image, orientation),
        pageLanguage: guess.language,
        giveUpBelow: SURE_READING,
      });
      if (result.unsure) {
        // The page lies or reads otherwise than the last one: its first reading counts among its calls.
        abandoned = result.calls;
        result = undefined;
      }
    }
    if (!result) {
      // A page whose way up the probes cannot tell (handwriting, a picture) is read as it is.
      orientation = await detectOrientation(image, this.options.languages);
      result = await engine.recognize({
        ...request,
        image: orientation ? await upright(image, orientation) : image,
        pageLanguage: orientation?.language,
      });
    }
    this.settled =
      orientation && !result.cut && result.confidence >= SURE_READING
        ? { turn: orientation.turn, language: orientation.language }
        : undefined;
    const notes: string[] = [];
    if (orientation && orientation.turn !== 0) notes.push(`turned ${orientation.turn}° clockwise to read it upright`);
    if (orientation && orientation.skew !== 0) notes.push(`straightened by ${Math.abs(orientation.skew).toFixed(1)}°`);
    if (result.cut) notes.push(`its ${budget / 1000} s reading time ran out: the best reading so far is kept`);
    return {
      ...result,
      calls: result.calls + abandoned,
      notes: [...notes, ...result.notes],
      seconds: (Date.now() - started) / 1000,
      lowConfidence: result.cut || result.confidence < LOW_CONFIDENCE_BELOW,
    };
  }

  async close(): Promise<void> {
    const engine = this.engine;
    this.engine = undefined;
    if (engine) await (await engine).close();
  }

  private open(): Promise<OcrEngine> {
    this.engine ??= openOcrEngine(this.options.engine, this.options.settings);
    return this.engine;
  }
}

/** The page turned by `turn` and straightened by its `skew`. */
async function upright(
  image: GreyImage,
  { turn: turned, skew }: Pick<PageOrientation, 'turn' | 'skew'>,
): Promise<GreyImage> {
  const turnedImage = await turn(image, turned);
  return skew === 0 ? turnedImage : rotate(turnedImage, -skew);
}
