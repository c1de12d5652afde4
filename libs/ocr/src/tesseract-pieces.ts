import { characterConfidence, unionBox, type Box, type GreyImage, type OcrLine, type OcrWord } from './engine';

/**
 * The pieces of a Tesseract reading worth reading again, and how they are read: the Korean
 * model's doubtful Latin and figure runs (doubtfulRuns) and lines (foreignLine), the surer of two
 * readings of a line (surerLines), and pieces of a page stacked into one image so that one call
 * reads them all (stackPieces).
 */

/** A Hangul syllable: a piece holding one is Korean the Korean model reads well. */
const SYLLABLE = /[\uac00-\ud7a3]/;
/** Below this confidence a piece of Latin letters, figures or lone jamo is read again. */
const DOUBTFUL_BELOW = 85;
/** A piece read again replaces the Korean model's reading only when read at least this surely. */
export const SURE_PIECE = 70;

/**
 * The runs of a word's pieces that hold no Hangul syllable (Latin letters, figures, punctuation,
 * lone jamo: what the Korean model makes of Latin) and that it read with less than DOUBTFUL_BELOW
 * confidence: `start` and `end` index the pieces, `box` is theirs. Runs are listed last first.
 */
export function doubtfulRuns(word: OcrWord): { start: number; end: number; box: Box; confidence: number }[] {
  const parts = word.parts ?? [word];
  const runs: { start: number; end: number; box: Box; confidence: number }[] = [];
  let start = -1;
  const close = (end: number) => {
    const pieces = parts.slice(start, end);
    const confidence = characterConfidence(pieces);
    if (confidence < DOUBTFUL_BELOW && /[\p{L}\p{N}]/u.test(pieces.map((p) => p.text).join(''))) {
      runs.push({ start, end, box: unionBox(pieces.map((p) => p.box)), confidence });
    }
    start = -1;
  };
  for (const [i, part] of parts.entries()) {
    if (SYLLABLE.test(part.text)) {
      if (start >= 0) close(i);
    } else if (start < 0) start = i;
  }
  if (start >= 0) close(parts.length);
  return runs.reverse();
}

/**
 * A line of a Korean reading that looks like another script read by the Korean model: read with
 * less than DOUBTFUL_BELOW confidence, with at least four letters or figures of which fewer than
 * half are Hangul syllables (a Latin line comes out of the Korean model as figures, jamo and
 * stray syllables). Lines of Korean text, even with figures and Latin words among them, are
 * mostly syllables; their Latin pieces are mended on their own (doubtfulRuns).
 */
export function foreignLine(line: OcrLine): boolean {
  if (line.confidence >= DOUBTFUL_BELOW) return false;
  const signs = [...line.text].filter((c) => /[\p{L}\p{N}]/u.test(c));
  const syllables = signs.filter((c) => SYLLABLE.test(c)).length;
  return signs.length >= 4 && syllables < signs.length / 2;
}

/** Margin around each piece, and white between pieces, in the stacked image. */
export const PIECE_MARGIN = 6;

/**
 * The pieces of an image at `boxes`, each with a white margin, stacked top to bottom in one image;
 * `slots` says where each piece lies in it.
 */
export function stackPieces(
  image: GreyImage,
  boxes: readonly Box[],
): { image: GreyImage; slots: { top: number; bottom: number }[] } {
  const width = Math.max(...boxes.map((b) => b.width)) + 2 * PIECE_MARGIN;
  const height = boxes.reduce((sum, b) => sum + b.height + 2 * PIECE_MARGIN, 0);
  const data = Buffer.alloc(width * height, 255);
  const slots: { top: number; bottom: number }[] = [];
  let top = 0;
  for (const box of boxes) {
    for (let row = 0; row < box.height; row++) {
      const y = box.y + row;
      if (y < 0 || y >= image.height) continue;
      const from = y * image.width + Math.max(0, box.x);
      const to = y * image.width + Math.min(image.width, box.x + box.width);
      image.data.copy(data, (top + PIECE_MARGIN + row) * width + PIECE_MARGIN, from, to);
    }
    slots.push({ top, bottom: top + box.height + 2 * PIECE_MARGIN });
    top += box.height + 2 * PIECE_MARGIN;
  }
  return { image: { width, height, data }, slots };
}

/**
 * Each line of a reading, or the line of another reading of the same page that lies in the same
 * place (overlapping most of it, about as wide) when that one was read with more confidence.
 */
export function surerLines(
  lines: readonly OcrLine[],
  others: readonly OcrLine[],
): { lines: OcrLine[]; replaced: number } {
  let replaced = 0;
  const out = lines.map((line) => {
    const rival = others.find((other) => samePlace(line.box, other.box));
    if (!rival || rival.confidence <= line.confidence) return line;
    replaced++;
    return { ...rival, paragraph: line.paragraph };
  });
  return { lines: out, replaced };
}

function samePlace(a: Box, b: Box): boolean {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (width <= 0 || height <= 0) return false;
  const smaller = Math.min(a.width * a.height, b.width * b.height);
  return width * height >= smaller * 0.6 && Math.abs(a.width - b.width) <= 0.2 * Math.max(a.width, b.width);
}
