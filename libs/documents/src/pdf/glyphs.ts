/**
 * The text a PDF's runs carry, made clean: ligatures expanded, soft hyphens, zero-width and
 * directional format characters dropped, every kind of space made a space, and control codes
 * removed. A run made mostly of control codes or private-use glyphs comes from a font without a
 * usable Unicode map: its text is garbage and the region it covers is read by OCR instead.
 */

/** What a font's name says about its faces. */
export interface FontTraits {
  bold: boolean;
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
const MONO_FACE = /courier|mono|consol|menlo|inconsolata|typewriter|cmtt|sfmono|lucida ?console|\bcode\b|fixed/i;
const SYMBOL_FACE = /dingbat|wingding|webding|symbol|bookmaster|marlett|\bmt ?extra\b/i;

export function fontTraits(name: string | undefined): FontTraits {
  const face = name ?? '';
  return { bold: BOLD_FACE.test(face), mono: MONO_FACE.test(face), symbol: SYMBOL_FACE.test(face) };
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
