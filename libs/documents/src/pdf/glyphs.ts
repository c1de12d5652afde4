/**
 * The text a PDF's runs carry, made clean: ligatures expanded, soft hyphens, zero-width and
 * directional format characters dropped, every kind of space made a space, and control codes
 * removed. A run made mostly of control codes or private-use glyphs comes from a font without a
 * usable Unicode map: its text is garbage and the region it covers is read by OCR instead.
 */

/** What a font's name says about its faces. */
export interface FontTraits {
  /** The font's name without a subset's prefix (`ABCDEF+`); undefined when the file gives none. */
  name: string | undefined;
  bold: boolean;
  /** Italic or oblique (slanted) face. */
  italic: boolean;
  /** Fixed-width (Courier, Consolas, TeX's typewriter faces…): code. */
  mono: boolean;
  /** A symbol or dingbat font: its glyphs are bullets and marks, whatever codes they carry. */
  symbol: boolean;
}

/**
 * Font names of bold faces: Bold, Black, Heavy, Semibold, Demi, Medium ("Medi", "Md"), and TeX's
 * bold extended fonts (CMBX, SFBX, LMRoman…-Bold).
 */
const BOLD_FACE = /bold|black|heavy|semibold|demi|medi|[-,+]md\b|(?:cm|sf|ec|lm)bx|[-,]bd\b/i;
/** Font names of slanted faces: Italic, Oblique, and TeX's text italic and slanted fonts (CMTI, CMSL, LMRoman…-Italic). */
const ITALIC_FACE = /italic|oblique|(?:cm|sf|ec|lm)(?:ti|sl|bxti|bxsl)\d|[-,]it\b/i;
const MONO_FACE = /courier|mono|consol|menlo|inconsolata|typewriter|cmtt|sfmono|lucida ?console|\bcode\b|fixed/i;
const SYMBOL_FACE = /dingbat|wingding|webding|symbol|bookmaster(?!gothic)|marlett|\bmt ?extra\b/i;

export function fontTraits(name: string | undefined): FontTraits {
  const face = name ?? '';
  return {
    name: name?.replace(/^[A-Z]{6}\+/, ''),
    bold: BOLD_FACE.test(face),
    italic: ITALIC_FACE.test(face),
    mono: MONO_FACE.test(face),
    symbol: SYMBOL_FACE.test(face),
  };
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const PRIVATE_USE = /[\ue000-\uf8ff]|[\u{f0000}-\u{10fffd}]/gu;
/** Ligature code points (ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ) and their letters. */
const LIGATURE = /[\ufb00-\ufb06]/g;
/** Soft hyphen, zero-width spaces and joiners, word joiner, byte order mark, directional marks and embeddings. */
const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
/** No-break, thin, hair, figure and other fixed-width spaces. */
const ODD_SPACE = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;

/** Symbol-font bullets in the private-use area (Symbol's and Wingdings' codes as Word writes them). */
const PRIVATE_BULLETS = new Set([
  '\uf0b7',
  '\uf0a7',
  '\uf0a8',
  '\uf076',
  '\uf0d8',
  '\uf0fc',
  '\uf06e',
  '\uf071',
  '\uf0e0',
  '\uf0de',
]);

export interface CleanText {
  text: string;
  /** Mostly control codes or private-use glyphs: unreadable without OCR. */
  garbage: boolean;
}

/**
 * Arabic and Persian text whose lam-alef ligatures came out reversed. A right-to-left line is
 * stored in visual order; a ligature glyph carries its two letters in reading order, and
 * reversing the line letter by letter swaps them: `الأ` (the article before alef-hamza) comes out
 * `األ`, Persian `کالا` as `کاال`. Two alefs never follow each other in either language, so an
 * alef, another alef and a lam is such a swap, and is put back.
 */
export function mendLamAlef(text: string): string {
  return text.replace(/ا([اأإآ])ل/g, 'ال$1');
}

/** A run's text as a reader would see it. */
export function cleanText(raw: string): CleanText {
  const visible = raw.replace(/\s+/g, '');
  const junk = (visible.match(CONTROL)?.length ?? 0) + (visible.match(PRIVATE_USE)?.length ?? 0);
  const garbage =
    visible.length > 0 && junk / [...visible].length >= 0.3 && ![...visible].every((c) => PRIVATE_BULLETS.has(c));
  const text = raw
    .replace(LIGATURE, (c) => c.normalize('NFKC'))
    .replace(INVISIBLE, '')
    .replace(ODD_SPACE, ' ')
    .replace(/[\t\n\r]/g, ' ')
    .replace(CONTROL, '');
  return { text: /[\u0600-\u06ff]/.test(text) ? mendLamAlef(text) : text, garbage };
}

/**
 * Whether a run is a mark drawn with a glyph that, at the start of a line, is a bullet: a
 * symbol font's glyph, a known private-use bullet, or one mark with control codes beside it
 * (an in-house bullet font's `r` drawn as a box).
 */
export function isGlyphMark(raw: string, traits: FontTraits): boolean {
  const visible = [...raw.replace(/\s+/g, '')];
  if (visible.length === 0 || visible.length > 2) return false;
  if (visible.every((c) => PRIVATE_BULLETS.has(c)) || traits.symbol) return true;
  const letters = visible.join('').replace(CONTROL, '');
  return letters.length < visible.length && letters.length <= 1;
}

/**
 * Spacing accents and the combining marks they stand for. TeX and other producers draw an accented
 * letter as the letter and an accent glyph moved over it, so the text layer reads `J´an` for `Ján`.
 */
const COMBINING: Record<string, string> = {
  '\u00b4': '\u0301', // ´ acute
  '\u0060': '\u0300', // ` grave
  '\u00a8': '\u0308', // ¨ diaeresis
  '\u02c6': '\u0302', // ˆ circumflex
  '\u005e': '\u0302', // ^ circumflex
  '\u02dc': '\u0303', // ˜ tilde
  '\u007e': '\u0303', // ~ tilde
  '\u02c7': '\u030c', // ˇ caron
  '\u02d8': '\u0306', // ˘ breve
  '\u00af': '\u0304', // ¯ macron
  '\u02c9': '\u0304', // ˉ macron
  '\u02d9': '\u0307', // ˙ dot above
  '\u02da': '\u030a', // ˚ ring above
  '\u00b8': '\u0327', // ¸ cedilla
  '\u02db': '\u0328', // ˛ ogonek
  '\u02dd': '\u030b', // ˝ double acute
};

/**
 * Two runs whose glyphs overlap on the page, joined: an accent at the end of the first is put on
 * the letter that opens the second, and an accent opening the second on the letter that ends the
 * first (producers draw either first). Undefined when neither holds, and the runs join as text.
 */
export function joinOverlapping(first: string, second: string): string | undefined {
  const accent = first.at(-1) ?? '';
  const opening = second.match(/^\p{L}/u)?.[0];
  if (COMBINING[accent] && opening) {
    return first.slice(0, -1) + (opening + COMBINING[accent]).normalize('NFC') + second.slice(opening.length);
  }
  const trailing = first.match(/\p{L}$/u)?.[0];
  if (trailing && COMBINING[second[0] ?? '']) {
    return first.slice(0, -1) + (trailing + COMBINING[second[0]]).normalize('NFC') + second.slice(1);
  }
  return undefined;
}

/** Runs of one face needed to judge its pitch, each of at least MIN_PITCH_LETTERS letters. */
const PITCH_SAMPLES = 4;
const MIN_PITCH_LETTERS = 3;
/** Largest spread of a fixed-width face's width per character, as a share of the mean. */
const FIXED_PITCH_SPREAD = 0.03;

/**
 * Whether the runs of one face show a fixed-width face: their letters all take one width. Runs of
 * letters only are measured, since digits take one width in most faces.
 */
export function fixedPitch(runs: { text: string; width: number }[]): boolean {
  const widths = runs
    .filter((r) => !/\s/.test(r.text) && (r.text.match(/\p{L}/gu)?.length ?? 0) >= MIN_PITCH_LETTERS)
    .map((r) => r.width / [...r.text].length);
  if (widths.length < PITCH_SAMPLES) return false;
  const mean = widths.reduce((a, b) => a + b, 0) / widths.length;
  const spread = Math.sqrt(widths.reduce((a, w) => a + (w - mean) ** 2, 0) / widths.length);
  return mean > 0 && spread <= mean * FIXED_PITCH_SPREAD;
}
