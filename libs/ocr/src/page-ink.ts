/**
 * What the ink of a page image says, and the image operations the orientation needs: the skew of
 * its lines (projection profiles), whether it holds ink at all, the strip of its densest text, and
 * the page turned, rotated or shrunk (sharp, one grey channel).
 */
import sharp, { type Sharp } from 'sharp';
import type { GreyImage } from './engine';

/** The largest skew looked for, in degrees either way. */
const MAX_SKEW_DEGREES = 10;
/** The analyses work on a copy this many pixels wide (or less). */
export const ANALYSIS_WIDTH = 1000;

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

export function skewOf(ink: Ink): number {
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
export interface Ink {
  /** How uneven the ink is along rows tilted by `degrees`: sharp for lines of text at that slope. */
  sharpness(degrees: number): number;
  columnSharpness: number;
}

export async function inkOf(image: GreyImage): Promise<Ink | undefined> {
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
export function densestStrip(image: GreyImage, size: { share: number; least: number }): GreyImage | undefined {
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
export async function shrunk(image: GreyImage, width: number): Promise<GreyImage> {
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
