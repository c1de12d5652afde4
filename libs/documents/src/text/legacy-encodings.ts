import { analyse } from 'chardet';
import iconv from 'iconv-lite';

/**
 * Which legacy (pre-Unicode) encoding a text is in, for bytes that are not UTF-8.
 *
 * chardet ranks encodings by byte statistics, which works for a paragraph but not for a short
 * file: a 40-byte Shift-JIS CSV of kanji names comes out as windows-1252, a short Korean line as
 * Arabic. So every candidate (chardet's, plus the East Asian double-byte encodings and the
 * Western, Central European and Cyrillic code pages, which are always tried) is decoded and the
 * result read the way a person would glance at it:
 *
 * - a decoding with invalid sequences (U+FFFD) or C1 control characters is wrong;
 * - a double-byte decoding should land on the characters its character set puts first, the
 *   common ones (KS X 1001's 2,350 Hangul syllables, GB 2312's level-1 hanzi, JIS X 0208's kana
 *   and level-1 kanji, Big5's frequent characters): Shift-JIS kanji read as GBK give GBK's
 *   extension block, Chinese read as CP949 gives Hanja and private-use characters;
 * - the most frequent syllables and characters of each language decide between Korean and
 *   Chinese, whose common blocks share byte values;
 * - Chinese and Japanese put no spaces between words: ideographs in short space-separated runs
 *   are Korean words misread;
 * - an ideograph or a Cyrillic letter stuck inside a Latin word (`Gr某e` for `Größe`), a symbol
 *   next to accented letters (`Ã¤Â±`, `ÇÑ±¹¾î`), a capital after a small letter, and words of
 *   accented letters only (`Ìîñêâà`) are mojibake.
 *
 * chardet's confidence is added with a smaller weight, so it decides between decodings that read
 * equally well (ISO-8859-1 or -2, Big5 or GB18030 on a long text).
 */

/** A candidate encoding (an iconv-lite name) and how well its decoding reads; higher is better. */
export interface EncodingGuess {
  encoding: string;
  score: number;
  /** Share of the decoding's non-ASCII characters that are invalid sequences (U+FFFD, C1 controls). */
  invalid: number;
}

/** Double-byte encodings of East Asian text, always tried. */
const EAST_ASIAN = ['cp949', 'cp932', 'gb18030', 'cp950', 'eucjp'] as const;
type EastAsian = (typeof EAST_ASIAN)[number];

/** Western European: the commonest single-byte encoding, and what ISO-8859-1 means in practice. */
const WESTERN = 'windows-1252';

/** Single-byte encodings always tried: Western and Central European, Cyrillic. */
const SINGLE_BYTE = [WESTERN, 'windows-1250', 'iso-8859-2', 'windows-1251'];

/** chardet's names as iconv-lite decodes them; Windows code pages for their ISO subsets. */
const CHARDET_NAMES: Record<string, string> = {
  'EUC-KR': 'cp949',
  Shift_JIS: 'cp932',
  'EUC-JP': 'eucjp',
  GB18030: 'gb18030',
  Big5: 'cp950',
  'ISO-8859-1': WESTERN,
  'ISO-8859-9': 'windows-1254',
};

/** How much chardet's confidence (0–100) counts against how the decoding reads (−3…1). */
const CHARDET_WEIGHT = 0.4;

/** How much a share of a language's most frequent characters counts. */
const FREQUENT_WEIGHT = 0.5;

/**
 * Nudges for when all else is equal: Korean is the first language of this service's users,
 * windows-1252 the commonest single-byte encoding, GB18030 commoner than Big5, and EUC-JP (old
 * Unix mail and pages) much rarer than Shift-JIS.
 */
const PRIOR: Record<string, number> = { cp949: 0.05, [WESTERN]: 0.05, gb18030: 0.03, eucjp: -0.1 };

/**
 * The candidates for `sample` (bytes that are not UTF-8, NUL-free), best first. `sample` should
 * end at a line break, so no candidate is judged on a character cut in half.
 */
export function rankLegacyEncodings(sample: Buffer): EncodingGuess[] {
  const confidence = new Map<string, number>();
  for (const match of analyse(sample)) {
    const encoding = CHARDET_NAMES[match.name] ?? match.name.toLowerCase();
    if (!iconv.encodingExists(encoding) || /^(utf|ascii|iso-2022)/.test(encoding)) continue;
    if (!confidence.has(encoding)) confidence.set(encoding, match.confidence);
  }
  const candidates = new Set([...confidence.keys(), ...EAST_ASIAN, ...SINGLE_BYTE]);
  return [...candidates]
    .map((encoding) => {
      const text = iconv.decode(sample, encoding);
      const score =
        readability(text, encoding) +
        (CHARDET_WEIGHT * (confidence.get(encoding) ?? 0)) / 100 +
        FREQUENT_WEIGHT * frequentShare(text, encoding) +
        (PRIOR[encoding] ?? 0);
      return { encoding, score, invalid: invalidShare(text) };
    })
    .sort((a, b) => b.score - a.score);
}

/**
 * More invalid sequences than this share of the non-ASCII characters, even in the best decoding,
 * and the bytes are not text in any encoding we know (a damaged text has a stray one or two).
 */
export const MAX_INVALID_SHARE = 0.01;

/** Share of the non-ASCII characters of `text` that are invalid sequences. */
function invalidShare(text: string): number {
  let nonAscii = 0;
  let invalid = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    nonAscii++;
    if (isInvalid(code)) invalid++;
  }
  return nonAscii === 0 ? 0 : invalid / nonAscii;
}

/** What one character says about a decoding. */
const GOOD = 1;
const NEUTRAL = 0;
const SUSPECT = -1;
const INVALID = -3;

/**
 * How well `text` reads as `encoding`'s decoding: the mean, over its non-ASCII characters, of
 * +1 for a plausible one, 0 for a possible one, −1 for mojibake and −3 for an invalid sequence.
 * Text with no non-ASCII character reads perfectly (1).
 */
function readability(text: string, encoding: string): number {
  const chars = [...text];
  const core = isEastAsian(encoding) ? coreCharacters(encoding) : undefined;
  const accented = core ? 0 : accentedShare(chars);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < chars.length; i++) {
    const code = chars[i].codePointAt(0) ?? 0;
    if (code < 0x80) continue;
    count++;
    sum += core
      ? eastAsianWeight(chars, i, code, core, encoding !== 'cp949')
      : singleByteWeight(chars, i, code, accented);
  }
  return count === 0 ? GOOD : sum / count;
}

/**
 * Weight of a character of a double-byte decoding. `unspaced`: the language writes no spaces
 * between words (Chinese, Japanese), so ideographs separated by single spaces are Korean words
 * misread.
 */
function eastAsianWeight(chars: string[], i: number, code: number, core: Set<string>, unspaced: boolean): number {
  if (isInvalid(code)) return INVALID;
  if (isPrivateUse(code)) return SUSPECT;
  const ideographic = isHan(code) || isHangul(code) || isKana(code);
  // `iPhone用` is fine; a lone ideograph with Latin letters on both sides is a misread accent.
  if (ideographic && isAsciiLetter(chars[i - 1]) && isAsciiLetter(chars[i + 1])) return SUSPECT;
  if (unspaced && ideographic && (spacedFrom(chars, i, -1) || spacedFrom(chars, i, 1))) return NEUTRAL;
  if (core.has(chars[i])) return GOOD;
  if (isHalfWidthKana(code)) return halfWidthKanaWeight(chars, i);
  return NEUTRAL;
}

/** Half-width katakana come in words (`ｶﾌﾞｼｷｶﾞｲｼｬ`); one alone is Korean or Chinese bytes misread. */
function halfWidthKanaWeight(chars: string[], i: number): number {
  const kana = (char: string | undefined) => isHalfWidthKana(char?.codePointAt(0) ?? 0);
  return kana(chars[i - 1]) || kana(chars[i + 1]) ? GOOD : SUSPECT;
}

/** Whether the character after a space next to `chars[i]` (on side `step`) is an ideograph too. */
function spacedFrom(chars: string[], i: number, step: number): boolean {
  const code = chars[i + 2 * step]?.codePointAt(0) ?? 0;
  return chars[i + step] === ' ' && (isHan(code) || isHangul(code) || isKana(code));
}

/** Weight of a character of a single-byte decoding. */
function singleByteWeight(chars: string[], i: number, code: number, accented: number): number {
  if (isInvalid(code)) return INVALID;
  const char = chars[i];
  const before = chars[i - 1];
  const after = chars[i + 1];
  if (/\p{L}/u.test(char)) {
    // Greek, Cyrillic, Hebrew, Arabic, Thai letters make whole words, never part of a Latin one.
    if (!isLatinLetter(code) && (isAsciiLetter(before) || isAsciiLetter(after))) return SUSPECT;
    // A capital after a small letter inside a word: `ÇÑ±¹¾î`, `ХвКЗТ`.
    if (/\p{Lu}/u.test(char) && before !== undefined && /\p{Ll}/u.test(before)) return SUSPECT;
    // Latin text is mostly ASCII letters; all accents (`Ìîñêâà`) is another script misread.
    return isLatinLetter(code) && accented > MAX_ACCENTED_SHARE ? NEUTRAL : GOOD;
  }
  // A symbol inside a word or next to another non-ASCII character: `Pøíli¹`, `Ã¤Â±`.
  if (isLetter(before) && isLetter(after)) return SUSPECT;
  return besideNonAscii(chars, i) ? SUSPECT : NEUTRAL;
}

/** Above this share of accented letters among Latin ones, a text is not in a Latin script. */
const MAX_ACCENTED_SHARE = 0.7;

/** Share of the Latin letters of `chars` that are accented (not ASCII). */
function accentedShare(chars: string[]): number {
  let latin = 0;
  let accented = 0;
  for (const char of chars) {
    const code = char.codePointAt(0) ?? 0;
    if (isLatinLetter(code)) accented++;
    else if (!isAsciiLetter(char)) continue;
    latin++;
  }
  return latin === 0 ? 0 : accented / latin;
}

function isLetter(char: string | undefined): boolean {
  return char !== undefined && /\p{L}/u.test(char);
}

/** Whether a character next to `chars[i]` is non-ASCII and not a space (mojibake comes in runs). */
function besideNonAscii(chars: string[], i: number): boolean {
  const nonAscii = (c: string | undefined) => c !== undefined && (c.codePointAt(0) ?? 0) >= 0x80 && !/\s/u.test(c);
  return nonAscii(chars[i - 1]) || nonAscii(chars[i + 1]);
}

/**
 * Share of the ideographic characters of `text` that are among the most frequent of the
 * encoding's language (hiragana count as frequent Japanese); 0 for other encodings.
 */
function frequentShare(text: string, encoding: string): number {
  if (!isEastAsian(encoding)) return 0;
  const frequent = FREQUENT[encoding];
  let ideographic = 0;
  let hits = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (!isHan(code) && !isHangul(code) && !isKana(code)) continue;
    ideographic++;
    if (frequent.has(char) || (JAPANESE.has(encoding) && isHiragana(code))) hits++;
  }
  return ideographic === 0 ? 0 : hits / ideographic;
}

function isEastAsian(encoding: string): encoding is EastAsian {
  return (EAST_ASIAN as readonly string[]).includes(encoding);
}

/** U+FFFD (an invalid sequence) and the C1 controls (bytes no Windows code page assigns). */
function isInvalid(code: number): boolean {
  return code === 0xfffd || (code >= 0x80 && code <= 0x9f);
}

function isPrivateUse(code: number): boolean {
  return code >= 0xe000 && code <= 0xf8ff;
}

function isHan(code: number): boolean {
  return (code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3400 && code <= 0x4dbf) || (code >= 0xf900 && code <= 0xfaff);
}

function isHangul(code: number): boolean {
  return code >= 0xac00 && code <= 0xd7a3;
}

function isKana(code: number): boolean {
  return code >= 0x3040 && code <= 0x30ff;
}

function isHalfWidthKana(code: number): boolean {
  return code >= 0xff61 && code <= 0xff9f;
}

function isHiragana(code: number): boolean {
  return code >= 0x3041 && code <= 0x309f;
}

function isLatinLetter(code: number): boolean {
  return (code >= 0xc0 && code <= 0x24f && code !== 0xd7 && code !== 0xf7) || (code >= 0x1e00 && code <= 0x1eff);
}

function isAsciiLetter(char: string | undefined): boolean {
  return char !== undefined && /^[A-Za-z]$/.test(char);
}

/**
 * The byte ranges of each double-byte character set's common block: lead bytes from–to, trail
 * bytes from–to. Characters outside them (GBK's and CP949's extensions, JIS level 2, Big5's less
 * frequent block) are possible but not evidence.
 */
const CORE_RANGES: Record<Exclude<EastAsian, 'eucjp'>, [number, number, number, number][]> = {
  // KS X 1001: symbols, then the 2,350 Hangul syllables.
  cp949: [
    [0xa1, 0xa1, 0xa1, 0xfe],
    [0xb0, 0xc8, 0xa1, 0xfe],
  ],
  // GB 2312: punctuation, full-width forms, then level-1 hanzi (the 3,755 most frequent).
  gb18030: [
    [0xa1, 0xa1, 0xa1, 0xfe],
    [0xa3, 0xa3, 0xa1, 0xfe],
    [0xb0, 0xd7, 0xa1, 0xfe],
  ],
  // JIS X 0208: punctuation, hiragana, katakana, then level-1 kanji.
  cp932: [
    [0x81, 0x83, 0x40, 0xfc],
    [0x88, 0x98, 0x40, 0xfc],
  ],
  // Big5: punctuation, then the 5,401 frequently used characters.
  cp950: [
    [0xa1, 0xa3, 0x40, 0xfe],
    [0xa4, 0xc6, 0x40, 0xfe],
  ],
};

const coreCache = new Map<string, Set<string>>();

/** The characters of `encoding`'s common block (EUC-JP shares Shift-JIS's: both are JIS X 0208). */
function coreCharacters(encoding: EastAsian): Set<string> {
  const table = encoding === 'eucjp' ? 'cp932' : encoding;
  let core = coreCache.get(table);
  if (core) return core;
  core = new Set<string>();
  for (const [leadFrom, leadTo, trailFrom, trailTo] of CORE_RANGES[table]) {
    for (let lead = leadFrom; lead <= leadTo; lead++) {
      for (let trail = trailFrom; trail <= trailTo; trail++) {
        const char = iconv.decode(Buffer.from([lead, trail]), table);
        if (char.length === 1 && char !== '\ufffd') core.add(char);
      }
    }
  }
  coreCache.set(table, core);
  return core;
}

/** Frequent Hangul syllables of Korean text: those of its particles, endings and commonest words. */
const FREQUENT_KOREAN =
  '이다의는에을하고가한로지서기사도나리자대들어인수시해적게정니를으일있전아상부주국내면요등보만것제과구성우와거여라장연동그중경비문무스조소위화신원개방학세오말생마없러유계치히되데까할했습합입었분용관드트공실안당미선회간발물행금년월저때더업명식야감진영결체운음산반통단날람심살속좋알같못께점집호교출네님씨및후또각곳번초팀법률권규칙항목차표건액격판매좌메름별직담락처참평균최총량완료예취확승청작삭록검색파첨모든민은앞늘책갈토탁립객종프램웨밀잊셨포급김찌잡곡밥란설잘읽변환침홉함귀터석받았던될텐며겠죠봅테써럼밖뿐따래왜떻언디누엇얼몇너많두접바먼올뒤옆겉막';

/** The most frequent characters of Simplified Chinese text. */
const FREQUENT_SIMPLIFIED =
  '的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日军者意无力它与长把机十民第公此已工使情明性知全三又关点正业外将两高间由问很最重并物手应战向头文体政美相见被利什二等产或新己制身果加西斯月话合回特代内信表化老给世位次度门任常先海通教儿原东声提立及比员解水名真论处走义各入几口认条平系气题活尔更别打女变四神总何电数安少报才结反受目太量再感建务做接必场件计管期市直德资命山金指克许统区保至队形社便空决治展马科司五基眼书非则听白';

/** The most frequent characters of Traditional Chinese text. */
const FREQUENT_TRADITIONAL =
  '的一是不了在人有我他這個們中來上大為和國地到以說時要就出會可也你對生能而子那得於著下自之年過發後作裡用道行所然家種事成方多經麼去法學如都同現當沒動面起看定天分還進好小部其些主樣理心她本前開但因只從想實日軍者意無力它與長把機十民第公此已工使情明性知全三又關點正業外將兩高間由問很最重並物手應戰向頭文體政美相見被利什二等產或新己制身果加西斯月話合回特代內信表化老給世位次度門任常先海通教兒原東聲提立及比員解水名真論處走義各入幾口認條平系氣題活爾更別打女變四神總何電數安少報才結反受目太量再感建務做接必場件計管期市直德資命山金指克許統區保至隊形社便空決治展馬科司五基眼書非則聽白';

/** The most frequent kanji of Japanese text (hiragana count as frequent too). */
const FREQUENT_JAPANESE =
  '日一国人年大十二本中長出三同時政事自行社見月分議後前民生連五発間対上部東者党地合市業内相方四定今回新場金員九入選立開手米力学問高代明実円関決子動京全目表戦経通外最言氏現理調体化田当八六約主題下首意法不来作性的要用制治度務強気小七成期公持野協取都和統以機平総加山思家話世受区領多県続進正安設保改数記院女初北午指権心界支第産結百派点教報済書府活原先共得解名交資予川向際査勝面委告軍文反元重近千考判認画海参売利組知案道信策集在件団別物側任引使求所次水半品昨論計死官増係感特情投示変打男基私各始島直両朝革価式確村提運終挙果西勢減台広容必応演電歳住争談能無再位置企真流格有疑口過局少放税検藤町常校料沢裁状工建語';

const FREQUENT: Record<EastAsian, Set<string>> = {
  cp949: new Set(FREQUENT_KOREAN),
  gb18030: new Set(FREQUENT_SIMPLIFIED),
  cp950: new Set(FREQUENT_TRADITIONAL),
  cp932: new Set(FREQUENT_JAPANESE),
  eucjp: new Set(FREQUENT_JAPANESE),
};

const JAPANESE = new Set<string>(['cp932', 'eucjp']);
