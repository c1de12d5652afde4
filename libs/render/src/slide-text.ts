import { displayWidth, isWide } from './text-width';

/*
 * Text measured by estimate: a line holds as many characters as fit at an average glyph width of
 * CHAR_WIDTH_EM of the font size (wide East Asian characters count double).
 */

/** Average glyph width, as a fraction of the font size, for proportional Latin text (on the generous side). */
export const CHAR_WIDTH_EM = 0.55;
export const MONO_CHAR_WIDTH_EM = 0.62;

/** Character units (a wide character is two) that fit on a line `widthIn` inches wide. */
export function unitsPerLine(widthIn: number, fontPt: number, charWidthEm = CHAR_WIDTH_EM): number {
  return Math.max(1, Math.floor((widthIn * 72) / (fontPt * charWidthEm)));
}

/**
 * Greedy word wrap: the offset where each line starts. Lines break between words; a word longer than a line
 * is broken between characters; `\n` forces a new line; a wide (East Asian) character takes two units.
 * Wrapping starts at offset `from`, and stops once `maxLines` lines are known to be full (the start of the
 * line after them is then the last offset returned), so a slide's share of a long text costs only that share.
 */
export function wrapLines(text: string, units: number, from = 0, maxLines = Infinity): number[] {
  const starts = [from];
  let used = 0;
  const pattern = /\n|[^\s\n]+[^\S\n]*|[^\S\n]+/g;
  pattern.lastIndex = from;
  for (let match = pattern.exec(text); match && starts.length <= maxLines; match = pattern.exec(text)) {
    const token = match[0];
    const at = match.index;
    if (token === '\n') {
      starts.push(at + 1);
      used = 0;
      continue;
    }
    const width = displayWidth(token.trimEnd());
    if (used > 0 && used + width > units) {
      starts.push(at);
      used = 0;
    }
    if (width <= units) {
      used += displayWidth(token);
      continue;
    }
    used = breakLongWord(token, at, units, used, starts);
  }
  return starts.length > maxLines ? starts.slice(0, maxLines + 1) : starts;
}

/** Wraps a word longer than a line between its characters; returns the units used on the last line. */
function breakLongWord(token: string, at: number, units: number, usedBefore: number, starts: number[]): number {
  let used = usedBefore;
  for (let i = 0; i < token.length;) {
    const char = String.fromCodePoint(token.codePointAt(i) ?? 32);
    const charWidth = isWide(char) ? 2 : 1;
    if (used > 0 && used + charWidth > units) {
      starts.push(at + i);
      used = 0;
    }
    used += charWidth;
    i += char.length;
  }
  return used;
}

/** The text cut to `maxLines` wrapped lines, ending in "…" when anything was cut. */
export function truncateToLines(text: string, units: number, maxLines: number): string {
  const starts = wrapLines(text, units, 0, maxLines);
  if (starts.length <= maxLines) return text;
  const kept = text.slice(0, starts[maxLines]).trimEnd();
  return `${kept.slice(0, Math.max(0, kept.length - 1)).trimEnd()}…`;
}

/** Words after which a full stop does not end a sentence. */
const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'fig',
  'figs',
  'no',
  'vs',
  'cf',
  'al',
  'st',
]);

/**
 * Offsets where a sentence starts after another one ends within the text: after `.`, `!`, `?` (or their
 * full-width forms and a closing quote or bracket) followed by white space, but not after an initial
 * ("J. Smith") or a common abbreviation ("e.g. this").
 */
export function sentenceStarts(text: string): number[] {
  const starts: number[] = [];
  for (const match of text.matchAll(/[.!?。！？]+["'”’»)\]]*\s+(?=\S)/g)) {
    const end = match.index;
    const word = /([\p{L}.]+)$/u.exec(text.slice(Math.max(0, end - 12), end))?.[1] ?? '';
    const fullStop = match[0].startsWith('.') && !match[0].startsWith('..');
    if (fullStop && (/^\p{Lu}$/u.test(word) || ABBREVIATIONS.has(word.toLowerCase()))) continue;
    starts.push(end + match[0].length);
  }
  return starts;
}

/** Offsets where a line starts after a line break within the text. */
export function lineStarts(text: string): number[] {
  return [...text.matchAll(/\n(?=[^\n])/g)].map((match) => match.index + 1);
}

/**
 * The width in character units of the longest word of the text, with capitals, digits and underscores
 * counted at 1.3 units: a column must not be narrower than its longest word, and "QIBM_DB_SECADM" is much
 * wider than as many lower-case letters.
 */
export function longestWord(text: string): number {
  const width = (word: string) => displayWidth(word) + 0.3 * (word.match(/[A-Z0-9_*]/g)?.length ?? 0);
  return Math.max(0, ...text.split(/\s+/).map(width));
}
