/**
 * Korean on a page read by an engine whose model has no Hangul (RapidOCR's, EasyOCR's English):
 * which lines it cannot have read right, the regions around them, and those regions read again
 * by an engine in the page's language, their lines moved back onto the page.
 */
import {
  countCall,
  unionBox,
  type Box,
  type GreyImage,
  type OcrEngine,
  type OcrLine,
  type OcrRequest,
  type ReadingPass,
} from './engine';
import { orderLines, type Corner } from './reading-order';

/** Below this confidence (0…100) a line on a page that may hold Korean is read again. */
const KOREAN_CONFIDENCE_BELOW = 80;

/**
 * A line with fewer characters than this many per line-height of its width has lost glyphs the
 * model has no class for. Latin text has about two characters per line-height (capitals ≈ 1.2,
 * the lowest seen ≈ 1.0); Hangul read by the Latin and Chinese model falls to 0.4–0.7.
 */
const KOREAN_MIN_CHARACTERS_PER_HEIGHT = 0.75;

/** Han ideographs, CJK punctuation and full-width forms: what the model writes for Hangul it cannot read. */
const CJK_FALLBACK = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u;

/** The page note for regions read again by another engine in the page's language. */
export function rereadNote(engine: string, regions: number, languages: readonly string[]): string {
  return `${regions} ${regions === 1 ? 'region' : 'regions'} read poorly, read again by ${engine} (${languages.join('+')})`;
}

/**
 * Whether PaddleOCR cannot have read a line right on a page that may hold Korean: it found text
 * there but read none of it, read it with low confidence, wrote Chinese characters or
 * full-width punctuation (what it makes of Hangul), or wrote far fewer characters than the
 * line's width holds (it skips glyphs it has no class for).
 */
export function needsKoreanReading(line: OcrLine): boolean {
  if (line.text === '' || line.confidence < KOREAN_CONFIDENCE_BELOW) return true;
  if (CJK_FALLBACK.test(line.text)) return true;
  return (
    line.box.height > 0 && line.text.length < KOREAN_MIN_CHARACTERS_PER_HEIGHT * (line.box.width / line.box.height)
  );
}

/**
 * The parts of the page to read again in Korean: lines that need it, joined with the next such
 * line of the same column when it follows within one and a half line heights, padded by half a
 * line height and merged where they overlap. Every other line inside a region is read again too.
 */
export function koreanRegions(lines: readonly OcrLine[], width: number, height: number): Box[] {
  const unread = orderLines(lines.filter(needsKoreanReading));
  if (unread.length === 0) return [];
  const runs: Box[] = [];
  for (const line of unread) {
    const last = runs.at(-1);
    if (last && continuesRegion(last, line.box)) runs[runs.length - 1] = unionBox([last, line.box]);
    else runs.push(line.box);
  }
  const margin = Math.max(4, Math.round(median(unread.map((line) => line.box.height)) / 2));
  return mergeOverlapping(runs.map((box) => grow(box, margin, width, height)));
}

function continuesRegion(region: Box, next: Box): boolean {
  const gap = next.y - (region.y + region.height);
  return (
    next.x < region.x + region.width &&
    region.x < next.x + next.width &&
    gap >= -next.height &&
    gap <= 1.5 * next.height
  );
}

/**
 * Reads each region with the Korean engine, in the page's languages (a region may hold English
 * lines beside Korean ones), and puts its lines, in page pixels, in place of the lines whose
 * middle lies inside the region. Every region is read: which ones depends on the page alone.
 */
export async function readRegions(
  korean: OcrEngine,
  image: GreyImage,
  regions: readonly Box[],
  model: OcrRequest['model'],
  lines: readonly OcrLine[],
  languages: readonly string[],
  pass: ReadingPass,
): Promise<OcrLine[]> {
  const replaced: Box[] = [];
  const read: OcrLine[] = [];
  for (const [index, region] of regions.entries()) {
    const result = await countCall(pass, () =>
      korean.recognize({ image: crop(image, region), model, languages: [...languages], signal: pass.signal }),
    );
    replaced.push(region);
    read.push(...result.lines.map((line) => moveLine(line, region.x, region.y, `korean-${index}`)));
  }
  const kept = lines.filter((line) => !replaced.some((region) => contains(region, middleOf(line.box))));
  return [...kept, ...read];
}

/** A line moved by (dx, dy), its paragraph key made unique to the region it came from. */
function moveLine(line: OcrLine, dx: number, dy: number, region: string): OcrLine {
  const move = (box: Box): Box => ({ ...box, x: box.x + dx, y: box.y + dy });
  return {
    ...line,
    box: move(line.box),
    words: line.words.map((word) => ({ ...word, box: move(word.box) })),
    paragraph: line.paragraph === undefined ? undefined : `${region}:${line.paragraph}`,
  };
}

/** The pixels of `box` (which lies inside the image) as an image of their own. */
export function crop(image: GreyImage, box: Box): GreyImage {
  const data = Buffer.alloc(box.width * box.height);
  for (let row = 0; row < box.height; row++) {
    const start = (box.y + row) * image.width + box.x;
    image.data.copy(data, row * box.width, start, start + box.width);
  }
  return { width: box.width, height: box.height, data };
}

function mergeOverlapping(boxes: Box[]): Box[] {
  const merged = [...boxes];
  for (let i = 0; i < merged.length; i++) {
    for (let j = i + 1; j < merged.length; j++) {
      if (!intersect(merged[i], merged[j])) continue;
      merged[i] = unionBox([merged[i], merged[j]]);
      merged.splice(j, 1);
      j = i; // the grown box may now reach boxes already passed
    }
  }
  return merged;
}

function grow(box: Box, margin: number, width: number, height: number): Box {
  const x = Math.max(0, box.x - margin);
  const y = Math.max(0, box.y - margin);
  const right = Math.min(width, box.x + box.width + margin);
  const bottom = Math.min(height, box.y + box.height + margin);
  return { x, y, width: right - x, height: bottom - y };
}

function intersect(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function contains(box: Box, [x, y]: Corner): boolean {
  return x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height;
}

function middleOf(box: Box): Corner {
  return [box.x + box.width / 2, box.y + box.height / 2];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
