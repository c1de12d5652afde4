/**
 * Turning a page upright before it is read, and telling which of the job's languages it is in.
 *
 * Tesseract's own orientation and script detection (`--psm 0`) was tried and left: on small
 * Korean type it names Devanagari or Bengali and turns upright pages sideways. Instead:
 * - the rows of ink tell whether lines run across the page or up and down it (a page lying on its
 *   side), and by how many degrees they slope (skew);
 * - a strip of the page's densest text, turned both ways, is read in each of the job's languages:
 *   the most confident reading names the page's way up and its language. Upside-down text and
 *   text in another script read with little confidence.
 * Engine-independent: every engine then reads the page this produces.
 */
import sharp, { type Sharp } from 'sharp';
import type { GreyImage } from './engine';
import { nativeAvailable, probeConfidence } from './tesseract';

/** Skew below this many degrees is left alone: the engines read such lines well. */
export const MIN_SKEW_DEGREES = 0.8;
/** The largest skew looked for, in degrees either way. */
const MAX_SKEW_DEGREES = 10;
/**
 * Below this confidence the best probe reading says nothing: the page is handwriting, a picture or
 * too degraded to tell its way up, and is read as it is.
 */
const MIN_PROBE_CONFIDENCE = 50;
/** The analyses work on a copy this many pixels wide (or less). */
const ANALYSIS_WIDTH = 1000;

/** How a page lies and what it is written in. */
export interface PageOrientation {
  /** Clockwise degrees that turn the page upright. */
  turn: 0 | 90 | 180 | 270;
  /** The job language whose reading of the probe was the most confident. */
  language: string;
  /** That reading's confidence, 0…100. */
  confidence: number;
}

/**
 * The page's way up and language, from probe readings (see the module's comment), or undefined
 * when the page has too little text to tell, none of its readings is sure enough
 * (MIN_PROBE_CONFIDENCE) or the native program is missing.
 */
export async function detectOrientation(
  image: GreyImage,
  languages: readonly string[],
): Promise<PageOrientation | undefined> {
  if (!(await nativeAvailable()) || languages.length === 0) return undefined;
  const ink = await inkOf(image);
  if (!ink) return undefined;
  const sideways = ink.columnSharpness > ink.rowSharpness * 1.2;
  const across = sideways ? await turn(image, 90) : image;
  const probe = await densestStrip(across);
  if (!probe) return undefined;
  let best: PageOrientation | undefined;
  for (const upsideDown of [false, true]) {
    const strip = upsideDown ? await turn(probe, 180) : probe;
    for (const language of languages) {
      const { confidence, characters } = await probeConfidence(strip, language);
      if (characters < 8) continue;
      if (!best || confidence > best.confidence) {
        const degrees = ((sideways ? 90 : 0) + (upsideDown ? 180 : 0)) as PageOrientation['turn'];
        best = { turn: degrees, language, confidence };
      }
    }
  }
  return best && best.confidence >= MIN_PROBE_CONFIDENCE ? best : undefined;
}

/** The image turned clockwise by a multiple of 90 degrees. */
export async function turn(image: GreyImage, degrees: number): Promise<GreyImage> {
  if (degrees % 360 === 0) return image;
  return fromSharp(pipelineOf(image).rotate(degrees));
}

/**
 * The image rotated by `degrees` (clockwise, any angle), the corners it uncovers white. Used to
 * take a skew out: rotate by minus the skew.
 */
export async function rotate(image: GreyImage, degrees: number): Promise<GreyImage> {
  return fromSharp(pipelineOf(image).rotate(degrees, { background: { r: 255, g: 255, b: 255 } }));
}

/**
 * The skew of a page's lines of text, in degrees clockwise (a line running down to the right has
 * a positive skew), by projection profiles: the ink of a copy about 1,000 pixels wide is summed
 * along rows tilted by each candidate angle, and the angle whose rows are most uneven (lines of
 * ink and gaps between them sharpest) wins; half-degree steps, then tenths around the best.
 * 0 for a page with too little ink to tell.
 */
export async function estimateSkew(image: GreyImage): Promise<number> {
  const ink = await inkOf(image);
  if (!ink) return 0;
  let best = 0;
  let bestScore = ink.sharpness(0);
  for (let degrees = -MAX_SKEW_DEGREES; degrees <= MAX_SKEW_DEGREES; degrees += 0.5) {
    const score = ink.sharpness(degrees);
    if (score > bestScore) [best, bestScore] = [degrees, score];
  }
  const coarse = best;
  for (let degrees = coarse - 0.4; degrees <= coarse + 0.4; degrees += 0.1) {
    const score = ink.sharpness(degrees);
    if (score > bestScore) [best, bestScore] = [degrees, score];
  }
  return Math.round(best * 10) / 10;
}

/** The dark pixels of a small copy of a page, and how sharply they fall into rows and columns. */
interface Ink {
  /** How uneven the ink is along rows tilted by `degrees`: sharp for lines of text at that slope. */
  sharpness(degrees: number): number;
  rowSharpness: number;
  columnSharpness: number;
}

async function inkOf(image: GreyImage): Promise<Ink | undefined> {
  const scale = Math.min(1, ANALYSIS_WIDTH / image.width);
  const small = await fromSharp(
    pipelineOf(image)
      .resize(Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale)))
      .normalise(),
  );
  let count = 0;
  for (const value of small.data) if (value < 128) count++;
  if (count < 500 || count > small.width * small.height * 0.5) return undefined;
  // Every step-th dark pixel: some 50,000 points tell the slope as well as all of them.
  const step = Math.max(1, Math.floor(count / 50_000));
  const xs: number[] = [];
  const ys: number[] = [];
  let seen = 0;
  for (let y = 0; y < small.height; y++) {
    for (let x = 0; x < small.width; x++) {
      if (small.data[y * small.width + x] < 128 && seen++ % step === 0) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  const profile = (positions: (i: number) => number, length: number): number => {
    const bins = new Float64Array(length + 2);
    for (let i = 0; i < xs.length; i++) bins[Math.round(positions(i))]++;
    let sum = 0;
    for (let i = 1; i < bins.length; i++) sum += (bins[i] - bins[i - 1]) ** 2;
    return sum;
  };
  const sharpness = (degrees: number): number => {
    const slope = Math.tan((degrees * Math.PI) / 180);
    return profile((i) => ys[i] - xs[i] * slope + small.width, small.height + 2 * small.width);
  };
  return {
    sharpness,
    rowSharpness: sharpness(0),
    columnSharpness: profile((i) => xs[i], small.width),
  };
}

/**
 * The band of the page, a sixth of its height (at least 120 pixels), whose rows hold the most
 * ink, cut to the ink's width: a few lines of the page's main text for the probe readings.
 */
async function densestStrip(image: GreyImage): Promise<GreyImage | undefined> {
  const rows = new Float64Array(image.height);
  let left = image.width;
  let right = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (image.data[y * image.width + x] < 128) {
        rows[y]++;
        if (x < left) left = x;
        if (x > right) right = x;
      }
    }
  }
  if (right <= left) return undefined;
  const band = Math.min(image.height, Math.max(120, Math.round(image.height / 6)));
  let sum = 0;
  for (let y = 0; y < band; y++) sum += rows[y];
  let [best, bestTop] = [sum, 0];
  for (let top = 1; top + band <= image.height; top++) {
    sum += rows[top + band - 1] - rows[top - 1];
    if (sum > best) [best, bestTop] = [sum, top];
  }
  const width = right - left + 1;
  const data = Buffer.alloc(width * band);
  for (let row = 0; row < band; row++) {
    const start = (bestTop + row) * image.width + left;
    image.data.copy(data, row * width, start, start + width);
  }
  return { width, height: band, data };
}

function pipelineOf(image: GreyImage): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } });
}

async function fromSharp(pipeline: Sharp): Promise<GreyImage> {
  const { data, info } = await pipeline.greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}
