import { characterConfidence, unionBox, type Box, type OcrLine, type OcrWord } from './engine';

/**
 * Tesseract's words to lines: its TSV output parsed, the syllables it reports one by one joined
 * into the words its text wrote together, and each word's box measured from its parts.
 */

/** A word of Tesseract's output, with whether a space stands before it in Tesseract's text (undefined: unknown). */
interface TsvWord extends OcrWord {
  spaced?: boolean;
}

/**
 * Lines from Tesseract's TSV output: word rows (level 5) grouped by block, paragraph and line
 * number, in the order Tesseract read them. Tesseract reports Hangul and CJK one syllable per
 * "word"; its plain `text` output of the same reading, when given, says which of them it wrote
 * together, and those become one word. Without it, syllables that touch are joined (lineText).
 */
export function parseTsv(tsv: string, text?: string): OcrLine[] {
  const lines = new Map<string, { paragraph: string; words: TsvWord[] }>();
  const order: TsvWord[] = [];
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t');
    if (cells.length < 12 || cells[0] !== '5') continue;
    const word = cells.slice(11).join('\t').trim();
    const confidence = Number(cells[10]);
    if (word === '' || confidence < 0) continue;
    const [block, paragraph, line] = [cells[2], cells[3], cells[4]];
    const key = `${block}.${paragraph}.${line}`;
    let entry = lines.get(key);
    if (!entry) lines.set(key, (entry = { paragraph: `${block}.${paragraph}`, words: [] }));
    const parsed: TsvWord = {
      text: word,
      confidence,
      box: { x: Number(cells[6]), y: Number(cells[7]), width: Number(cells[8]), height: Number(cells[9]) },
    };
    entry.words.push(parsed);
    order.push(parsed);
  }
  if (text !== undefined) markSpaces(order, text);
  return [...lines.values()].map(({ paragraph, words }) => toLine(words, paragraph));
}

/**
 * Sets each word's `spaced` from Tesseract's text, which holds the same words in the same order:
 * whether whitespace stands between it and the word before. A word the text does not hold where
 * expected (it never should) leaves the rest of its line to the geometry.
 */
function markSpaces(words: TsvWord[], text: string): void {
  let cursor = 0;
  for (const word of words) {
    let at = cursor;
    while (at < text.length && /\s/.test(text[at])) at++;
    if (text.startsWith(word.text, at)) {
      word.spaced = at > cursor;
      cursor = at + word.text.length;
      continue;
    }
    const found = text.indexOf(word.text, cursor);
    if (found >= 0 && found - cursor < 200) cursor = found + word.text.length;
  }
}

/** Hangul and CJK: scripts Tesseract splits into one "word" per syllable or character. */
const CJK = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * Whether a space stands between two of Tesseract's words on a line of the given height when
 * its text does not say: Latin words always; Korean (and CJK) syllables only where the gap
 * between them is as wide as a real space (a quarter of the line's height).
 */
function spaceBetween(previous: OcrWord, word: OcrWord, height: number): boolean {
  const gap = word.box.x - (previous.box.x + previous.box.width);
  return !(CJK.test(previous.text.slice(-1)) && CJK.test(word.text[0]) && gap < height * 0.25);
}

/** A line's text from its words, by the geometry alone (see spaceBetween). */
export function lineText(words: OcrWord[]): string {
  const height = Math.max(...words.map((w) => w.box.height));
  return words.reduce(
    (text, word, i) =>
      i === 0 || !spaceBetween(words[i - 1], word, height) ? text + word.text : `${text} ${word.text}`,
    '',
  );
}

/**
 * A line from Tesseract's words: those written together become one word (its box the union,
 * its confidence the characters' mean), so that what follows sees the words of the page.
 */
export function toLine(parts: TsvWord[], paragraph?: string): OcrLine {
  const height = Math.max(...parts.map((w) => w.box.height));
  const groups: TsvWord[][] = [];
  for (const [i, part] of parts.entries()) {
    const spaced = i === 0 || (part.spaced ?? spaceBetween(parts[i - 1], part, height));
    if (spaced) groups.push([part]);
    else groups[groups.length - 1].push(part);
  }
  const tall = tallerThanTheLine(parts);
  const words: OcrWord[] = groups.map((group) => ({
    text: group.map((w) => w.text).join(''),
    box: wordBox(group, tall),
    confidence: characterConfidence(group),
    ...(group.length > 1 ? { parts: group.map(({ text, box, confidence }) => ({ text, box, confidence })) } : {}),
  }));
  return {
    text: words.map((w) => w.text).join(' '),
    box: unionBox(words.map((w) => w.box)),
    confidence: characterConfidence(words),
    words,
    paragraph,
  };
}

/**
 * Tesseract now and then gives a syllable a box reaching into the next line. Such a box (over
 * 1.6 times the line's median height) says nothing about the word's height.
 */
function tallerThanTheLine(parts: readonly OcrWord[]): (part: OcrWord) => boolean {
  const heights = parts.map((w) => w.box.height).sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)];
  return (part) => part.box.height > median * 1.6;
}

/** A word's box from its parts: their union, heights from the parts that are not too tall when there are such. */
function wordBox(group: readonly OcrWord[], tall: (part: OcrWord) => boolean): Box {
  const across = unionBox(group.map((w) => w.box));
  const measured = group.filter((w) => !tall(w));
  if (measured.length === 0 || measured.length === group.length) return across;
  const down = unionBox(measured.map((w) => w.box));
  return { x: across.x, y: down.y, width: across.width, height: down.height };
}
