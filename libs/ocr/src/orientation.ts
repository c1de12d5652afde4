/**
 * Turning a page upright before it is read, and telling which of the job's languages it is in.
 *
 * Tesseract's own orientation and script detection (`--psm 0`) was tried and left: on small
 * Korean type it names Devanagari or Bengali and turns upright pages sideways. Instead:
 * - the rows of ink tell which way lines most likely run (across the page, or up and down it on a
 *   page lying on its side), and by how many degrees they slope (skew);
 * - a strip of the page's densest text, turned both ways, is read in each of the job's languages:
 *   the most confident reading names the page's way up and its language. Upside-down text and
 *   text in another script read with little confidence. A glance at a few lines comes first: on
 *   most pages it reads surely and settles it alone.
 * Engine-independent: every engine then reads the page this produces.
 */
import sharp, { type Sharp } from 'sharp';
import type { GreyImage } from './engine';
import { nativeAvailable, probeConfidence } from './tesseract-native';

/** Skew below this many degrees is left alone: the engines read such lines well. */
export const MIN_SKEW_DEGREES = 0.8;
/** The largest skew looked for, in degrees either way. */
const MAX_SKEW_DEGREES = 10;
/**
 * Below this confidence the best probe reading says nothing: the page is handwriting, a picture or
 * too degraded to tell its way up, and is read as it is.
 */
const MIN_PROBE_CONFIDENCE = 50;
/** A probe reading this confident ends the search (see detectOrientation). */
const SURE_PROBE_CONFIDENCE = 85;
/**
 * A reading this much more confident than the page's reading upside down (in the same language)
 * settles its way up (see detectOrientation).
 */
const CLEAR_MARGIN = 20;
/**
 * A full probe: the share of the page's height it reads (see densestStrip), its fewest pixels, and
 * the fewest characters a reading of it must hold to count.
 */
const PROBE = { share: 1 / 6, least: 120, characters: 8 };
/**
 * How much sharper than its rows a page's columns of ink must be for it to be probed lying on its
 * side first: some 6× on a page of Latin text lying so, about 1× on Hangul either way.
 */
const SIDEWAYS_SHARPNESS = 1.5;
/** A glance, which settles most pages: a few lines. */
const GLANCE = { share: 1 / 20, least: 40, characters: 40 };
/** Pages wider than this are probed on a smaller copy: type at 150 dpi reads as surely as at 300. */
const PROBE_WIDTH = 1300;
/** The analyses work on a copy this many pixels wide (or less). */
const ANALYSIS_WIDTH = 1000;

/** How a page lies and what it is written in. */
export interface PageOrientation {
  /** Clockwise degrees that turn the page upright. */
  turn: 0 | 90 | 180 | 270;
  /**
   * The slope of its lines once turned, in degrees clockwise (0 under MIN_SKEW_DEGREES): rotating
   * the turned page by minus this straightens it.
   */
  skew: number;
  /** The job language whose reading of the probe was the most confident. */
  language: string;
  /** That reading's confidence, 0…100. */
  confidence: number;
}

/** How a probe strip is read: the native program's fast model (probeConfidence); `signal` is the page's safety valve. */
export type ProbeReader = (
  image: GreyImage,
  language: string,
  signal?: AbortSignal,
) => Promise<{ confidence: number; characters: number }>;

/**
 * The page's way up and language, from probe readings (see the module's comment), or undefined
 * when the page has too little text to tell, none of its readings is sure enough
 * (MIN_PROBE_CONFIDENCE) or the native program is missing.
 */
export async function detectOrientation(
  image: GreyImage,
  languages: readonly string[],
  read: ProbeReader = probeConfidence,
  signal?: AbortSignal,
): Promise<PageOrientation | undefined> {
  if (!(await nativeAvailable()) || languages.length === 0) return undefined;
  const page = await shrunk(image, PROBE_WIDTH);
  // Measured on a copy made straight from the page, as skewWhenTurned measures a later page.
  const ink = await inkOf(image);
  if (!ink) return undefined;
  // Lines running up and down the page make its columns of ink clearly sharper than its rows: that
  // way is probed first. Otherwise upright, the likelier way, comes first: characters set in a grid
  // (Hangul often is) make columns of ink about as sharp as rows either way. The other way is
  // probed too unless a reading settles it.
  const sideways = ink.columnSharpness > SIDEWAYS_SHARPNESS * ink.sharpness(skewOf(ink));
  const bases = sideways ? [90, 0] : [0, 90];
  let best: PageOrientation | undefined;
  for (const [index, base] of bases.entries()) {
    const { image: across, skew } = await straighten(page, base, base === 0 ? skewOf(ink) : undefined);
    // Most pages stand upright in one script: a glance at a few of their lines, the way the ink
    // says they run, settles it at a fraction of a full probe's cost.
    const sizes = index === 0 ? [GLANCE, PROBE] : [PROBE];
    for (const size of sizes) {
      const strip = densestStrip(across, size);
      if (!strip) continue;
      const found = await probeBothWays(strip, {
        base,
        skew,
        languages,
        fewest: size.characters,
        best,
        read: (probe, language) => read(probe, language, signal),
      });
      if (found.settled) return found.best;
      if (size === PROBE) best = found.best;
    }
  }
  return best && best.confidence >= MIN_PROBE_CONFIDENCE ? best : undefined;
}

/**
 * The page turned clockwise by `base` and straightened by its skew there (`measured` when known:
 * upright, the page's ink is measured already).
 */
async function straighten(
  page: GreyImage,
  base: number,
  measured?: number,
): Promise<{ image: GreyImage; skew: number }> {
  const across = await turn(page, base);
  const slope = measured ?? (await estimateSkew(across));
  const skew = Math.abs(slope) >= MIN_SKEW_DEGREES ? slope : 0;
  return { image: skew === 0 ? across : await rotate(across, -skew), skew };
}

/**
 * Reads `strip` (the page turned by `base` and straightened) as it lies and upside down, in each
 * language, and keeps the most confident reading when it beats `best`. Settled when a reading is
 * sure (SURE_PROBE_CONFIDENCE), or plain (MIN_PROBE_CONFIDENCE) and CLEAR_MARGIN above the other
 * way's reading in the same language: upside-down text and another script never read so well, and
 * text lying across the other way reads worse still. Upside down, once a reading has named the
 * language, only that language is read; when no reading as it lies counted, not at all. Readings of
 * fewer than `fewest` characters count for nothing.
 */
async function probeBothWays(
  strip: GreyImage,
  {
    base,
    skew,
    languages,
    fewest,
    best,
    read,
  }: {
    base: number;
    skew: number;
    languages: readonly string[];
    fewest: number;
    best?: PageOrientation;
    read: (image: GreyImage, language: string) => ReturnType<ProbeReader>;
  },
): Promise<{ best?: PageOrientation; settled: boolean }> {
  const ways: Map<string, number>[] = [];
  for (const upsideDown of [false, true]) {
    // A strip that read too little as it lies holds too little text to read upside down either.
    if (upsideDown && ways[0].size === 0) break;
    const way = new Map<string, number>();
    ways.push(way);
    const image = upsideDown ? await turn(strip, 180) : strip;
    const named = upsideDown && best && best.confidence >= MIN_PROBE_CONFIDENCE ? [best.language] : languages;
    for (const language of named) {
      const { confidence, characters } = await read(image, language);
      if (characters < fewest) continue;
      way.set(language, confidence);
      if (best && confidence <= best.confidence) continue;
      // A half turn leaves the slope of lines as it was: the skew measured before it holds after it.
      const turned = ((base + (upsideDown ? 180 : 0)) % 360) as PageOrientation['turn'];
      best = { turn: turned, skew, language, confidence };
      if (confidence >= SURE_PROBE_CONFIDENCE) return { best, settled: true };
    }
  }
  if (!best || best.confidence < MIN_PROBE_CONFIDENCE || (best.turn - base) % 180 !== 0)
    return { best, settled: false };
  const other = ways[best.turn === base ? 1 : 0]?.get(best.language) ?? 0;
  return { best, settled: best.confidence - other >= CLEAR_MARGIN };
}

/**
 * The skew of a page that `turned` clockwise stands upright, measured as detectOrientation measures
 * it (0 under MIN_SKEW_DEGREES): for a page whose way up is known already, without its probes.
 */
export async function skewWhenTurned(image: GreyImage, turned: PageOrientation['turn']): Promise<number> {
  // The analysis copy straight from the page (one resize): the probes' copy is not needed here.
  const page = await shrunk(image, ANALYSIS_WIDTH);
  const base = turned % 180;
  const measured = await estimateSkew(base === 0 ? page : await turn(page, base));
  // A half turn leaves the slope of lines as it was.
  return Math.abs(measured) >= MIN_SKEW_DEGREES ? measured : 0;
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
  return ink ? skewOf(ink) : 0;
}

function skewOf(ink: Ink): number {
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
  columnSharpness: number;
}

async function inkOf(image: GreyImage): Promise<Ink | undefined> {
  const small = await shrunk(image, ANALYSIS_WIDTH);
  const pixels = small.data;
  const dark = darkGreys(pixels);
  let count = 0;
  for (let i = 0; i < pixels.length; i++) count += dark[pixels[i]];
  if (count < 500 || count > small.width * small.height * 0.5) return undefined;
  // Every step-th dark pixel: some 50,000 points tell the slope as well as all of them.
  const step = Math.max(1, Math.floor(count / 50_000));
  const xs = new Float64Array(Math.ceil(count / step));
  const ys = new Float64Array(xs.length);
  let points = 0;
  let seen = 0;
  for (let y = 0; y < small.height; y++) {
    const row = y * small.width;
    for (let x = 0; x < small.width; x++) {
      if (dark[pixels[row + x]] === 1 && seen++ % step === 0) {
        xs[points] = x;
        ys[points++] = y;
      }
    }
  }
  // How uneven the points' counts are along bins: the sum of squared steps between neighbours.
  const unevenness = (bins: Int32Array): number => {
    let sum = 0;
    for (let i = 1; i < bins.length; i++) sum += (bins[i] - bins[i - 1]) ** 2;
    return sum;
  };
  const offset = small.width + 0.5;
  const bins = new Int32Array(small.height + 2 * small.width + 2);
  const sharpness = (degrees: number): number => {
    const slope = Math.tan((degrees * Math.PI) / 180);
    bins.fill(0);
    // Every position is positive (slopes stay under 10°, so xs · slope < width): Math.round is
    // truncation after adding 0.5.
    for (let i = 0; i < points; i++) bins[(ys[i] - xs[i] * slope + offset) | 0]++;
    return unevenness(bins);
  };
  const columns = new Int32Array(small.width + 2);
  for (let i = 0; i < points; i++) columns[xs[i]]++;
  return { sharpness, columnSharpness: unevenness(columns) };
}

/**
 * Which grey levels are ink (1) once the image's contrast is stretched: its lightness (CIE L*) from
 * the 1st to the 99th percentile spread over the whole range, as sharp's `normalise` does, and the
 * pixels darker than mid-grey then. Stretching maps grey levels one to one, so a table of the 256
 * levels from the image's histogram says it without making the stretched copy (which sharp builds
 * through the LAB colour space, most of an analysis's time).
 */
export function darkGreys(pixels: Uint8Array): Uint8Array {
  const histogram = new Float64Array(101);
  const counts = new Float64Array(256);
  for (let i = 0; i < pixels.length; i++) counts[pixels[i]]++;
  for (let grey = 0; grey < 256; grey++) histogram[Math.floor(LIGHTNESS[grey])] += counts[grey];
  const percentile = (percent: number): number => {
    let seen = 0;
    for (let l = 0; l < histogram.length; l++) {
      seen += histogram[l];
      if (seen > (percent / 100) * pixels.length) return l;
    }
    return histogram.length - 1;
  };
  const [low, high] = [percentile(1), percentile(99)];
  const dark = new Uint8Array(256);
  for (let grey = 0; grey < 256; grey++) {
    const stretched = high - low > 1 ? ((LIGHTNESS[grey] - low) * 100) / (high - low) : LIGHTNESS[grey];
    dark[grey] = stretched < MID_GREY ? 1 : 0;
  }
  return dark;
}

/** CIE L* (0…100) of an sRGB grey level. */
function lightness(grey: number): number {
  const c = grey / 255;
  const y = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  return y > 216 / 24389 ? 116 * Math.cbrt(y) - 16 : (24389 / 27) * y;
}

const LIGHTNESS = Float64Array.from({ length: 256 }, (_, grey) => lightness(grey));
/** The lightness under which a stretched pixel, written back as a grey level, is darker than 128. */
const MID_GREY = lightness(127.5);

/**
 * The band of the page, `size.share` of its height (at least `size.least` pixels), whose rows hold
 * the most strokes, cut to the ink's width and widened to whole lines: a few lines of the page's main
 * text for the probe readings.
 */
function densestStrip(image: GreyImage, size: { share: number; least: number }): GreyImage | undefined {
  // Rows are weighed by their changes from white to ink: many in lines of text, few along a rule,
  // a bar or a block of solid ink.
  const rows = new Float64Array(image.height);
  let left = image.width;
  let right = 0;
  for (let y = 0; y < image.height; y++) {
    let previous = false;
    for (let x = 0; x < image.width; x++) {
      const dark = image.data[y * image.width + x] < 128;
      if (dark) {
        if (!previous) rows[y]++;
        if (x < left) left = x;
        if (x > right) right = x;
      }
      previous = dark;
    }
  }
  if (right <= left) return undefined;
  const band = Math.min(image.height, Math.max(size.least, Math.round(image.height * size.share)));
  let sum = 0;
  for (let y = 0; y < band; y++) sum += rows[y];
  let [best, bestTop] = [sum, 0];
  for (let top = 1; top + band <= image.height; top++) {
    sum += rows[top + band - 1] - rows[top - 1];
    if (sum > best) [best, bestTop] = [sum, top];
  }
  // Widened to the nearest rows without ink, so that no line is cut in half.
  let top = bestTop;
  let bottom = bestTop + band - 1;
  while (top > 0 && rows[top] > 0 && bestTop - top < band / 2) top--;
  while (bottom < image.height - 1 && rows[bottom] > 0 && bottom - (bestTop + band - 1) < band / 2) bottom++;
  const width = right - left + 1;
  const height = bottom - top + 1;
  const data = Buffer.alloc(width * height);
  for (let row = 0; row < height; row++) {
    const start = (top + row) * image.width + left;
    image.data.copy(data, row * width, start, start + width);
  }
  return { width, height, data };
}

/** The share of a page's pixels that must be ink for it to be more than blank paper: a line or two of text. */
const INK_SHARE = 0.001;

/**
 * Whether an image holds ink, not just paper (with its specks and shading): at least INK_SHARE of
 * the pixels of a copy about ANALYSIS_WIDTH pixels wide are darker than half the paper's
 * brightness (its 90th-percentile grey level). A page that has ink and gives no text was not read.
 */
export async function hasInk(image: GreyImage): Promise<boolean> {
  if (image.width === 0 || image.height === 0) return false;
  const small = await shrunk(image, ANALYSIS_WIDTH);
  const counts = new Uint32Array(256);
  for (let i = 0; i < small.data.length; i++) counts[small.data[i]]++;
  let seen = 0;
  let paper = 255;
  for (let grey = 0; grey < 256; grey++) {
    seen += counts[grey];
    if (seen >= small.data.length * 0.9) {
      paper = grey;
      break;
    }
  }
  let ink = 0;
  for (let grey = 0; grey < paper / 2; grey++) ink += counts[grey];
  return ink >= small.data.length * INK_SHARE;
}

/** The image scaled down to at most `width` pixels across (itself when it is no wider). */
async function shrunk(image: GreyImage, width: number): Promise<GreyImage> {
  if (image.width <= width) return image;
  const height = Math.max(1, Math.round((image.height * width) / image.width));
  return fromSharp(pipelineOf(image).resize(width, height));
}

function pipelineOf(image: GreyImage): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } });
}

async function fromSharp(pipeline: Sharp): Promise<GreyImage> {
  const { data, info } = await pipeline.greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}
