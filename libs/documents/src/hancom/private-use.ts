/**
 * Hancom's private-use characters mapped to Unicode, so that no private-use code point reaches
 * our Markdown. HWP and HWPX text carries two kinds of them, which only Hancom's fonts draw:
 *
 * - Old-Hangul (옛한글) syllables and jamo in the Hanyang PUA (U+E0BC–U+F66E, U+F784–U+F8F7),
 *   which Hancom wrote before it moved to KS X 1026-1. Each becomes its sequence of Hangul
 *   conjoining jamo from the KTUG Hanyang PUA Table Project (public domain; see
 *   `private-use-table.ts`). U+F53A, which Hancom's specification and sample files use for the
 *   first syllable of the product name, is the syllable ᄒᆞᆫ (with arae-a) of that table, which
 *   is what Hancom's own PDF of its format specification shows (rhwp pull request #2128): the
 *   name reads ᄒᆞᆫ글, as Hancom's logotype draws it.
 * - Hancom's own symbols (bullets, circled and squared numbers, box-drawing pieces, the company
 *   logotype), mostly in plane 15. Only those whose glyph has been established are mapped, each
 *   with its evidence beside it in {@link HANCOM_SYMBOLS}.
 *
 * Everything else in the private-use areas (U+E000–U+F8FF and planes 15 and 16 in full, whose
 * last two code points are noncharacters) becomes {@link PRIVATE_USE_STAND_IN}, U+3013 GETA MARK
 * 〓: the mark that East Asian typesetting uses for a character that cannot be shown. It is in
 * KS X 1001, so every Korean font draws it, and unlike □ (which Hancom documents use as a real
 * checkbox) or U+FFFD (a decoding error) it cannot be mistaken for content.
 *
 * Output and NFC: each old-Hangul syllable is written NFC-normalized. NFC composes a modern
 * initial and vowel (and a modern final) into the precomposed syllable and leaves old jamo as
 * conjoining characters, so `U+E0D2` → `가` U+11FF, canonically equivalent to the table's
 * U+1100 U+1161 U+11FF; a syllable with an old vowel (ᄒᆞᆫ) stays a jamo sequence. Hanyang jamo
 * written one by one form syllables with their neighbours the way Hancom's fonts drew them; one
 * left incomplete gets the Hangul fillers (U+115F, U+1160), as Unicode's standard syllable block
 * requires.
 */
import { OLD_HANGUL_TABLE } from './private-use-table';

/** Written for a private-use character with no known Unicode equivalent. */
export const PRIVATE_USE_STAND_IN = '\u3013';

/** A code point in the BMP private-use area or in planes 15–16 (the supplementary private-use planes). */
export function isPrivateUse(codePoint: number): boolean {
  return (codePoint >= 0xe000 && codePoint <= 0xf8ff) || (codePoint >= 0xf0000 && codePoint <= 0x10ffff);
}

/** U+20DE COMBINING ENCLOSING SQUARE after a number: Unicode's form of Hancom's numbers in a square. */
const squared = (digits: string): string => `${digits}\u20de`;

/**
 * Hancom symbols with an established glyph. Sources: rhwp (github.com/edwardkim/rhwp, MIT), whose
 * maintainers compared each character in real documents with the PDF that Hancom Office itself
 * exported from them; the file, issue or pull request is named beside each entry.
 */
const HANCOM_SYMBOLS: ReadonlyMap<number, string> = new Map([
  // Windows symbol-font slots (U+F020–U+F0FF), which the Hanyang table leaves free.
  [0xf06c, '\u25cf'], // ● rhwp #7153: Hancom PDF draws U+F06C in body text with Wingdings' black circle.
  [0xf09f, '\u2022'], // • rhwp #7153 (Hancom PDF: a small circle) and map_pua_bullet_char.
  [0xf0e8, '\u2794'], // ➔ rhwp map_pua_bullet_char (Task #509): Hancom PDF shows a heavy wide-headed right arrow.
  // Plane 15.
  [0xf003b, '\u2193'], // ↓ rhwp map_pua_bullet_char: exam_eng.hwp p. 7, outline of the glyph in Hancom's PDF.
  [0xf0090, '\u273a'], // ✺ rhwp #5599 (Hangul 2022 PDF): radiating asterisk.
  [0xf012b, '(인)'], // rhwp hancom_pua.rs, #947: signature field of 복학원서.hwp; Hancom PDF shows (인).
  // Circled digits: rhwp hancom_pua.rs, #5651: hwp3-sample11 p. 23, label row ⓪…⑨ in Hancom's PDF.
  // U+F028B (③) is left out: that document writes a literal ③ there.
  [0xf0288, '\u24ea'], // ⓪
  [0xf0289, '\u2460'], // ①
  [0xf028a, '\u2461'], // ②
  [0xf028c, '\u2463'], // ④
  [0xf028d, '\u2464'], // ⑤
  [0xf028e, '\u2465'], // ⑥
  [0xf028f, '\u2466'], // ⑦
  [0xf0290, '\u2467'], // ⑧
  [0xf0291, '\u2468'], // ⑨
  // Numbers in a square: rhwp #5599 and #5673 (Hangul 2022 PDF, four documents) for 1–7 and 12,
  // #6127 (Hangul 2020 output) for 0. The run is not consecutive (U+F02C5 is 12, not 21), so no
  // other code point of it is assumed.
  [0xf02b0, squared('0')],
  [0xf02b1, squared('1')],
  [0xf02b2, squared('2')],
  [0xf02b3, squared('3')],
  [0xf02b4, squared('4')],
  [0xf02b5, squared('5')],
  [0xf02b6, squared('6')],
  [0xf02b7, squared('7')],
  [0xf02c5, squared('12')],
  [0xf02ec, '\u25c7'], // ◇ rhwp #5599, #5673 (Hangul 2022 PDF).
  [0xf02ef, '\u00b7'], // · rhwp map_pua_bullet_char: Hancom PDF shows a middle dot.
  [0xf02fb, '\u25b8'], // ▸ rhwp hancom_pua.rs, #4224: pau-004.hwp, HCR Dotum's small right triangle.
  [0xf02fc, '\u25ba'], // ► rhwp hancom_pua.rs: 행정업무운영 편람 p. 15, Hancom PDF.
  [0xf031c, '\u25a0'], // ■ rhwp hancom_pua.rs: 행정업무운영 편람 p. 8, Hancom PDF.
  [0xf03a0, '\u21b5'], // ↵ rhwp hancom_pua.rs: Hancom PDF draws an Enter-key pictogram.
  [0xf03a7, '\u229f'], // ⊟ rhwp #5599 (Hangul 2022 PDF).
  [0xf03a8, '\u229e'], // ⊞ rhwp #5599 (Hangul 2022 PDF).
  [0xf03c5, '\u25a1'], // □ rhwp hancom_pua.rs: empty checkbox bullet, Hancom PDF.
  [0xf03da, '\u25a1'], // □ rhwp #5599 (Hangul 2022 PDF).
  // The company logotype 한글과컴퓨터, one syllable each: rhwp hancom_pua.rs, Hancom PDF of the page header.
  [0xf03ef, '한'],
  [0xf03f0, '글'],
  [0xf03f1, '과'],
  [0xf03f2, '컴'],
  [0xf03f3, '퓨'],
  [0xf03f4, '터'],
  [0xf03ff, '\u25a1'], // □ rhwp #5599 (Hangul 2022 PDF).
  // Box-drawing pieces: rhwp hancom_pua.rs, #5651: hwp3-sample11 pp. 6, 22, 129 in Hancom's PDF.
  [0xf0806, '\u250c'], // ┌
  [0xf0807, '\u252c'], // ┬
  [0xf0808, '\u2510'], // ┐
  [0xf080c, '\u2514'], // └
  [0xf080e, '\u2518'], // ┘
  [0xf080f, '\u2501'], // ━ rhwp map_pua_bullet_char: sample11.hwp header and footer rules as Hancom draws them.
  [0xf0810, '\u2502'], // │
  [0xf0827, '\u2550'], // ═ rhwp #5793: Hangul 2022 draws a double rule under a title.
  [0xf0832, '\u2550'], // ═ rhwp #5599 (Hangul 2022 PDF).
  [0xf0848, '\u2501'], // ━ rhwp #5599 (Hangul 2022 PDF).
  // Book-title brackets: rhwp map_pua_bullet_char: exam_kor.hwp p. 17, 33 pairs around titles (용비어천가, 석보상절).
  [0xf0854, '\u300a'], // 《
  [0xf0855, '\u300b'], // 》
]);

const HANYANG_JAMO_FIRST = 0xf784;
const HANYANG_JAMO_LAST = 0xf8f7;
const CHOSEONG_FILLER = '\u115f';
const JUNGSEONG_FILLER = '\u1160';

/** Conjoining jamo: initial (L), vowel (V), final (T), or none. */
type JamoClass = 'L' | 'V' | 'T' | '';

function jamoClass(codePoint: number | undefined): JamoClass {
  if (codePoint === undefined) return '';
  if ((codePoint >= 0x1100 && codePoint <= 0x115f) || (codePoint >= 0xa960 && codePoint <= 0xa97c)) return 'L';
  if ((codePoint >= 0x1160 && codePoint <= 0x11a7) || (codePoint >= 0xd7b0 && codePoint <= 0xd7c6)) return 'V';
  if ((codePoint >= 0x11a8 && codePoint <= 0x11ff) || (codePoint >= 0xd7cb && codePoint <= 0xd7fb)) return 'T';
  return '';
}

let oldHangul: Map<number, string> | undefined;

/** The Hanyang table, decoded (and each syllable NFC-normalized) on first use. */
function oldHangulTable(): Map<number, string> {
  if (oldHangul) return oldHangul;
  const table = new Map<number, string>();
  for (const line of OLD_HANGUL_TABLE.trim().split('\n')) {
    const [start, ...entries] = line.split(' ');
    let codePoint = parseInt(start, 16);
    for (const entry of entries) {
      let sequence = '';
      if (entry !== '.') {
        for (let i = 0; i < entry.length; i += 4) sequence += String.fromCharCode(parseInt(entry.slice(i, i + 4), 16));
      }
      table.set(codePoint, sequence.normalize('NFC'));
      codePoint += 1;
    }
  }
  oldHangul = table;
  return table;
}

/** BMP private use, or a high surrogate of planes 15–16: the only ways a private-use code point appears. */
const MAY_HOLD_PRIVATE_USE = /[\ue000-\uf8ff\udb80-\udbff]/;

/**
 * Replaces every private-use code point in `text`: Hanyang old Hangul by conjoining jamo, known
 * Hancom symbols by their Unicode equivalent, anything else by {@link PRIVATE_USE_STAND_IN}.
 * Returns `text` itself when it holds no private-use code point. Unpaired surrogates are left as
 * they are.
 */
export function mapPrivateUse(text: string): string {
  if (!MAY_HOLD_PRIVATE_USE.test(text)) return text;
  const table = oldHangulTable();
  const isHanyangJamo = (codePoint: number | undefined): codePoint is number =>
    codePoint !== undefined && codePoint >= HANYANG_JAMO_FIRST && codePoint <= HANYANG_JAMO_LAST;
  let out = '';
  let copied = 0;
  /** Hanyang jamo written in a row, NFC-normalized together once the row ends. */
  let jamoRun = '';
  /** Class of the last code point written, when a following Hanyang jamo may join it. */
  let previous: JamoClass = '';
  for (let i = 0; i < text.length;) {
    const codePoint = text.codePointAt(i) as number;
    const width = codePoint > 0xffff ? 2 : 1;
    if (!isPrivateUse(codePoint)) {
      if (jamoRun && i === copied) {
        out += jamoRun.normalize('NFC');
        jamoRun = '';
      }
      previous = jamoClass(codePoint);
      i += width;
      continue;
    }
    out += text.slice(copied, i);
    const next = i + width;
    if (isHanyangJamo(codePoint)) {
      const jamo = table.get(codePoint) ?? '';
      const kind = jamoClass(jamo.codePointAt(0));
      if (kind === 'V' && previous !== 'L' && previous !== 'V') jamoRun += CHOSEONG_FILLER;
      if (kind === 'T' && previous !== 'V' && previous !== 'T') jamoRun += CHOSEONG_FILLER + JUNGSEONG_FILLER;
      jamoRun += jamo;
      if (kind === 'L') {
        const after = text.codePointAt(next);
        const following = isHanyangJamo(after)
          ? jamoClass(table.get(after)?.codePointAt(0))
          : after !== undefined && isPrivateUse(after)
            ? ''
            : jamoClass(after);
        if (following !== 'L' && following !== 'V') jamoRun += JUNGSEONG_FILLER;
      }
      if (kind) previous = kind;
    } else {
      if (jamoRun) {
        out += jamoRun.normalize('NFC');
        jamoRun = '';
      }
      // A syllable of the table is a complete block: a Hanyang jamo after it starts a new one.
      out += table.get(codePoint) ?? HANCOM_SYMBOLS.get(codePoint) ?? PRIVATE_USE_STAND_IN;
      previous = '';
    }
    i = next;
    copied = next;
  }
  if (jamoRun) out += jamoRun.normalize('NFC');
  return out + text.slice(copied);
}
