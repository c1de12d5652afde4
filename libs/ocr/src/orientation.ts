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
 * Engine-independent: every engine then reads the page this produces. The ink analyses and image
 * operations are in page-ink.ts.
 */
import type { GreyImage } from './engine';
import { ANALYSIS_WIDTH, densestStrip, estimateSkew, inkOf, rotate, shrunk, skewOf, turn } from './page-ink';
import { nativeAvailable, probeConfidence } from './tesseract-native';

/** Skew below this many degrees is left alone: the engines read such lines well. */
export const MIN_SKEW_DEGREES = 0.8;
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
