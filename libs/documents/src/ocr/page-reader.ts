import { DomainError } from '@docconv/contracts';
import {
  detectOrientation,
  hasInk,
  liftRules,
  openOcrEngine,
  probeConfidence,
  ReadingTimeout,
  rotate,
  skewWhenTurned,
  turn,
  type GreyImage,
  type ImageRule,
  type OcrEngine,
  type OcrEngineName,
  type OcrModelName,
  type OcrResult,
  type OcrSettings,
  type PageOrientation,
} from '@docconv/ocr';
import { PageNotRead } from '../page-failure';

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
   * The safety valve (OCR_PAGE_DEADLINE_SECONDS): a page still being read after this many seconds
   * is stopped and fails (it is not charged, and the Markdown says so). It never shapes a reading.
   */
  pageDeadlineSeconds: number;
}

/** Below this confidence a page's reading is marked low-confidence (it is delivered). */
export const LOW_CONFIDENCE_BELOW = 70;

/**
 * Below this confidence (0…100, the characters' mean) a page's reading is not delivered: the page
 * fails as read too poorly, and is not charged. Far under what a readable page reads at (the dev
 * set's scans: 80–96); Tesseract leaves lines under 50 out as marks already.
 */
export const UNREADABLE_BELOW = 30;

/**
 * A page read with at least this confidence settles which way up the file's pages lie and what
 * they are written in: the next page is read so straight away, its probes skipped, unless its
 * first reading falls below this (upside-down text and another script read far below it).
 */
export const SURE_READING = 85;

/**
 * A page's way up and language carry over only within a block of this many pages (1–5, 6–10, …),
 * so that how a page is read never depends on where the file was cut into page ranges: ranges
 * start at a block's first page (see rangePagesFor).
 */
export const ORIENTATION_BLOCK_PAGES = 5;

/** A whole page's reading: the engine's result, turned upright first, with how long it took. */
export interface PageReading extends OcrResult {
  seconds: number;
  /** The reading is poor (confidence under LOW_CONFIDENCE_BELOW), though delivered. */
  lowConfidence: boolean;
  /**
   * The ruling lines of the page read (premium: see liftRules), in pixels of the image the words'
   * boxes are in; they were taken out of the image before its words were read.
   */
  rules: ImageRule[];
}

/** Reads images with the job's engine, opened on the first image and kept for the rest of the file. */
export class PageReader {
  private engine?: Promise<OcrEngine>;
  /** The last page read surely (SURE_READING): its number, way up and language. */
  private settled?: { page: number } & Pick<PageOrientation, 'turn' | 'language'>;

  constructor(readonly options: OcrOptions) {}

  /** Reads part of a page (an area without a readable text layer) as it stands, in the job's languages. */
  async read(image: GreyImage): Promise<OcrResult> {
    return (await this.open()).recognize({ image, model: this.options.model, languages: this.options.languages });
  }

  /**
   * Reads page `page` of a file whole: turned upright when it lies sideways or upside down,
   * straightened when its lines are skewed (libs/ocr MIN_SKEW_DEGREES or more), read in the language
   * its probe read best (libs/ocr orientation.ts). When the page before it, in the same block of
   * ORIENTATION_BLOCK_PAGES, was read surely (SURE_READING), Tesseract reads it the same way up and in
   * the same language without probing it first; a first reading below SURE_READING sends it through
   * the probes. Nothing here depends on time: the same page gives the same reading on any machine
   * load. The page fails (PageNotRead: not charged) when its reading is stopped by the safety valve
   * (pageDeadlineSeconds), when the engine fails on it, when it yields no text though it has ink, or
   * when it reads under UNREADABLE_BELOW.
   */
  async readPage(image: GreyImage, page: number): Promise<PageReading> {
    // The page's time starts once its engine is up: starting one (loading its models) is the file's cost.
    const engine = await this.open();
    const started = Date.now();
    const deadline = this.options.pageDeadlineSeconds;
    const stop = new AbortController();
    const valve = setTimeout(() => stop.abort(), deadline * 1000);
    let reading: { result: OcrResult; notes: string[]; rules: ImageRule[] };
    try {
      reading = await this.readUpright(engine, image, page, stop.signal);
    } catch (error) {
      if (error instanceof ReadingTimeout || stop.signal.aborted) {
        throw new PageNotRead('deadline', `its reading was stopped after ${deadline} s, the most a page may take`);
      }
      if (error instanceof DomainError) throw error;
      const why = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
      throw new PageNotRead('engine_error', `the ${this.options.engine} engine failed on it (${why})`);
    } finally {
      clearTimeout(valve);
    }
    const { result, notes, rules } = reading;
    const characters = result.lines.reduce((n, line) => n + line.text.replace(/\s/g, '').length, 0);
    if (characters === 0 && (await hasInk(image))) {
      throw new PageNotRead('no_text', 'no text was found on it, though it is not blank');
    }
    if (characters > 0 && result.confidence < UNREADABLE_BELOW) {
      throw new PageNotRead(
        'low_confidence',
        `it was read too poorly to deliver (confidence ${Math.round(result.confidence)} of 100, under ${UNREADABLE_BELOW})`,
      );
    }
    return {
      ...result,
      notes: [...notes, ...result.notes],
      seconds: (Date.now() - started) / 1000,
      lowConfidence: result.confidence < LOW_CONFIDENCE_BELOW,
      rules,
    };
  }

  async close(): Promise<void> {
    const engine = this.engine;
    this.engine = undefined;
    if (engine) await (await engine).close();
  }

  /**
   * The page read upright (see readPage), with the notes on how it was turned and, for premium,
   * the rules taken out of the upright image before its words were read.
   */
  private async readUpright(
    engine: OcrEngine,
    image: GreyImage,
    page: number,
    signal: AbortSignal,
  ): Promise<{ result: OcrResult; notes: string[]; rules: ImageRule[] }> {
    const request = { model: this.options.model, languages: this.options.languages, signal };
    let rules: ImageRule[] = [];
    const prepared = async (orientation?: Pick<PageOrientation, 'turn' | 'skew'>): Promise<GreyImage> => {
      const straight = orientation ? await upright(image, orientation) : image;
      if (this.options.model !== 'premium') return straight;
      const lifted = liftRules(straight);
      rules = lifted.rules;
      return lifted.image;
    };
    let orientation: Pick<PageOrientation, 'turn' | 'skew' | 'language'> | undefined;
    let result: OcrResult | undefined;
    let abandoned = 0;
    const last = this.settled;
    this.settled = undefined;
    const guess =
      this.options.engine === 'tesseract' && last && last.page === page - 1 && sameBlock(last.page, page)
        ? last
        : undefined;
    if (guess) {
      orientation = { ...guess, skew: await skewWhenTurned(image, guess.turn) };
      result = await engine.recognize({
        ...request,
        image: await prepared(orientation),
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
      orientation = await detectOrientation(image, this.options.languages, probeConfidence, signal);
      result = await engine.recognize({
        ...request,
        image: await prepared(orientation),
        pageLanguage: orientation?.language,
      });
    }
    if (orientation && result.confidence >= SURE_READING) {
      this.settled = { page, turn: orientation.turn, language: orientation.language };
    }
    const notes: string[] = [];
    if (orientation && orientation.turn !== 0) notes.push(`turned ${orientation.turn}° clockwise to read it upright`);
    if (orientation && orientation.skew !== 0) notes.push(`straightened by ${Math.abs(orientation.skew).toFixed(1)}°`);
    return { result: { ...result, calls: result.calls + abandoned }, notes, rules };
  }

  private open(): Promise<OcrEngine> {
    this.engine ??= openOcrEngine(this.options.engine, this.options.settings);
    return this.engine;
  }
}

/** Whether two pages are in the same block of ORIENTATION_BLOCK_PAGES (pages count from 1). */
function sameBlock(a: number, b: number): boolean {
  return Math.floor((a - 1) / ORIENTATION_BLOCK_PAGES) === Math.floor((b - 1) / ORIENTATION_BLOCK_PAGES);
}

/** The page turned by `turn` and straightened by its `skew`. */
async function upright(
  image: GreyImage,
  { turn: turned, skew }: Pick<PageOrientation, 'turn' | 'skew'>,
): Promise<GreyImage> {
  const turnedImage = await turn(image, turned);
  return skew === 0 ? turnedImage : rotate(turnedImage, -skew);
}
