import { romanNumeral } from '../roman-numeral';

/**
 * Outline and paragraph numbers as Hancom draws them: each numbering has up to ten levels, each
 * level a number format and a pattern such as `^1.` or `(^5)` in which `^n` stands for the
 * current number of level n, written in level n's format.
 */

/** Hancom's number formats, in the order of their codes in HWP 5 files (HWPX names them). */
export const NUMBER_FORMATS = [
  'DIGIT',
  'CIRCLED_DIGIT',
  'ROMAN_CAPITAL',
  'ROMAN_SMALL',
  'LATIN_CAPITAL',
  'LATIN_SMALL',
  'CIRCLED_LATIN_CAPITAL',
  'CIRCLED_LATIN_SMALL',
  'HANGUL_SYLLABLE',
  'CIRCLED_HANGUL_SYLLABLE',
  'HANGUL_JAMO',
  'CIRCLED_HANGUL_JAMO',
  'HANGUL_PHONETIC',
  'IDEOGRAPH',
  'CIRCLED_IDEOGRAPH',
  'DECAGON_CIRCLE',
  'DECAGON_CIRCLE_HANJA',
] as const;

export type NumberFormat = (typeof NUMBER_FORMATS)[number];

export interface NumberingLevel {
  /** What is drawn, `^n` standing for level n's number: `^1.`, `^2)`, `(^5)`. */
  pattern: string;
  format: NumberFormat;
  /** The first number of the level. */
  start: number;
}

export interface Numbering {
  /** Level 1 first. */
  levels: NumberingLevel[];
}

const HANGUL_SYLLABLES = [...'가나다라마바사아자차카타파하'];
const HANGUL_JAMO = [...'ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ'];
const HANGUL_PHONETIC = ['일', '이', '삼', '사', '오', '육', '칠', '팔', '구', '십'];
const IDEOGRAPHS = [...'一二三四五六七八九十'];
const DECAGON = [...'갑을병정무기경신임계'];
const DECAGON_HANJA = [...'甲乙丙丁戊己庚辛壬癸'];

/** The format named `name` (HWPX) or numbered `code` (HWP 5); DIGIT for anything unknown. */
export function numberFormat(nameOrCode: string | number): NumberFormat {
  if (typeof nameOrCode === 'number') return NUMBER_FORMATS[nameOrCode] ?? 'DIGIT';
  return (NUMBER_FORMATS as readonly string[]).includes(nameOrCode) ? (nameOrCode as NumberFormat) : 'DIGIT';
}

/** `n` written in `format`; numbers a format cannot show (past ⑳, past 하) fall back to digits. */
export function formatNumber(n: number, format: NumberFormat): string {
  const cycle = (symbols: string[]): string => symbols[(n - 1) % symbols.length];
  if (n < 1) return String(n);
  switch (format) {
    case 'DIGIT':
      return String(n);
    case 'CIRCLED_DIGIT':
      return n <= 20 ? String.fromCodePoint(0x2460 + n - 1) : String(n);
    case 'ROMAN_CAPITAL':
      return romanNumeral(n);
    case 'ROMAN_SMALL':
      return romanNumeral(n).toLowerCase();
    case 'LATIN_CAPITAL':
      return latin(n);
    case 'LATIN_SMALL':
      return latin(n).toLowerCase();
    case 'CIRCLED_LATIN_CAPITAL':
      return n <= 26 ? String.fromCodePoint(0x24b6 + n - 1) : latin(n);
    case 'CIRCLED_LATIN_SMALL':
      return n <= 26 ? String.fromCodePoint(0x24d0 + n - 1) : latin(n).toLowerCase();
    case 'HANGUL_SYLLABLE':
      return cycle(HANGUL_SYLLABLES);
    case 'CIRCLED_HANGUL_SYLLABLE':
      return n <= 14 ? String.fromCodePoint(0x326e + n - 1) : cycle(HANGUL_SYLLABLES);
    case 'HANGUL_JAMO':
      return cycle(HANGUL_JAMO);
    case 'CIRCLED_HANGUL_JAMO':
      return n <= 14 ? String.fromCodePoint(0x3260 + n - 1) : cycle(HANGUL_JAMO);
    case 'HANGUL_PHONETIC':
      return n <= 10 ? HANGUL_PHONETIC[n - 1] : String(n);
    case 'IDEOGRAPH':
      return n <= 10 ? IDEOGRAPHS[n - 1] : String(n);
    case 'CIRCLED_IDEOGRAPH':
      return n <= 10 ? String.fromCodePoint(0x3280 + n - 1) : String(n);
    case 'DECAGON_CIRCLE':
      return cycle(DECAGON);
    case 'DECAGON_CIRCLE_HANJA':
      return cycle(DECAGON_HANJA);
  }
}

function latin(n: number): string {
  let out = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) out = String.fromCharCode(65 + ((k - 1) % 26)) + out;
  return out;
}

/**
 * The numbers of one document as its paragraphs come: one counter per numbering and level. A
 * paragraph at level n counts up level n and starts every deeper level again; a level not yet
 * used when a deeper one is drawn shows its first number.
 */
export class NumberingCounter {
  private readonly counts = new Map<string, number[]>();

  /** The label of the next paragraph numbered with `numbering` (known by `key`) at `level` (0 for level 1). */
  next(key: string, numbering: Numbering, level: number): string {
    const counts = this.counts.get(key) ?? [];
    this.counts.set(key, counts);
    const depth = Math.max(0, Math.min(level, numbering.levels.length - 1));
    const start = (l: number): number => numbering.levels[l]?.start ?? 1;
    counts[depth] = counts[depth] === undefined ? start(depth) : counts[depth] + 1;
    counts.length = depth + 1;
    const definition = numbering.levels[depth];
    if (!definition) return '';
    return definition.pattern.replace(/\^(\d{1,2})/g, (_whole, digits: string) => {
      const l = Number(digits) - 1;
      if (l < 0 || l >= numbering.levels.length) return '';
      return formatNumber(counts[l] ?? start(l), numbering.levels[l].format);
    });
  }

  /** Numbering `key` starts again at `value` on its first level (a new-number control). */
  restart(key: string, value: number): void {
    this.counts.set(key, [value - 1]);
  }
}
