import { isPrivateUse, mapPrivateUse, PRIVATE_USE_STAND_IN } from './private-use';
import { OLD_HANGUL_TABLE } from './private-use-table';

const PRIVATE_USE = /[\ue000-\uf8ff\u{f0000}-\u{10ffff}]/u;

describe('mapPrivateUse', () => {
  it('writes a Hanyang old-Hangul syllable as its conjoining jamo', () => {
    // The example of KTUG's table: ᄊᆞ (U+EBD4) in the preface of Hunminjeongeum.
    expect(mapPrivateUse('나랏말\uebd4미')).toBe('나랏말\u110a\u119e미');
    expect(mapPrivateUse('\ue1a7')).toBe('\u1100\u119e');
  });

  it('reads U+F53A as ᄒᆞᆫ, the first syllable of the product name in sample-5017', () => {
    expect(mapPrivateUse('본 문서는 \uf53a글 워드 프로세서의')).toBe('본 문서는 \u1112\u119e\u11ab글 워드 프로세서의');
  });

  it('writes a syllable with a modern initial and vowel NFC-composed, the old final left conjoining', () => {
    // KTUG: U+E0D2 => U+1100 U+1161 U+11FF.
    expect(mapPrivateUse('\ue0d2')).toBe('\uac00\u11ff');
    expect('\u1100\u1161\u11ff'.normalize('NFC')).toBe('\uac00\u11ff');
  });

  it('maps every entry of the Hanyang table to NFC-stable text with no private-use code point', () => {
    let entries = 0;
    for (const line of OLD_HANGUL_TABLE.trim().split('\n')) {
      const [start, ...rest] = line.split(' ');
      rest.forEach((_, index) => {
        const mapped = mapPrivateUse(String.fromCodePoint(parseInt(start, 16) + index));
        expect(mapped).not.toMatch(PRIVATE_USE);
        expect(mapped.normalize('NFC')).toBe(mapped);
        entries += 1;
      });
    }
    expect(entries).toBe(5661);
  });

  it('joins Hanyang jamo written one by one and fills the syllables they leave incomplete', () => {
    // ㄱ ㅏ ㄱ (U+F785 U+F807 U+F86B) is the syllable 각.
    expect(mapPrivateUse('\uf785\uf807\uf86b')).toBe('각');
    // ㅅ ㆍ (old vowel) stays a sequence.
    expect(mapPrivateUse('\uf7c2\uf85e')).toBe('\u1109\u119e');
    expect(mapPrivateUse('(\uf785)')).toBe('(\u1100\u1160)');
    expect(mapPrivateUse('(\uf807)')).toBe('(\u115f\u1161)');
    expect(mapPrivateUse('(\uf86b)')).toBe('(\u115f\u1160\u11a8)');
    // A jamo after a table syllable starts a block of its own.
    expect(mapPrivateUse('\ue1a7\uf86b')).toBe('\u1100\u119e\u115f\u1160\u11a8');
  });

  it('maps Hancom symbols established from Hancom output', () => {
    expect(mapPrivateUse('\u{f03ef}\u{f03f0}\u{f03f1}\u{f03f2}\u{f03f3}\u{f03f4}')).toBe('한글과컴퓨터');
    expect(mapPrivateUse('서명 \u{f012b}')).toBe('서명 (인)');
    expect(mapPrivateUse('\u{f0289}\u{f028a}')).toBe('①②');
    expect(mapPrivateUse('\u{f02b2}\u{f02b0}')).toBe('2\u20de0\u20de');
    expect(mapPrivateUse('\uf06c 항목')).toBe('● 항목');
  });

  it('writes the stand-in for a private-use code point with no known equivalent', () => {
    expect(PRIVATE_USE_STAND_IN).toBe('〓');
    expect(mapPrivateUse('a\ue000b')).toBe('a〓b');
    // U+F0A0: Hancom output shows a small mark whose shape the sources disagree on.
    expect(mapPrivateUse('\uf0a0')).toBe('〓');
    // Between the Hanyang syllables and jamo, and past the jamo.
    expect(mapPrivateUse('\uf700\uf8ff')).toBe('〓〓');
  });

  it('treats planes 15 and 16 as private use, one stand-in per code point', () => {
    expect(mapPrivateUse('\u{f0000}x\u{ffffd}\u{100000}\u{10fffd}\u{10ffff}')).toBe('〓x〓〓〓〓');
    expect(mapPrivateUse('\udb80\udc00')).toBe('〓');
    expect(isPrivateUse(0xf0000)).toBe(true);
    expect(isPrivateUse(0x10ffff)).toBe(true);
    expect(isPrivateUse(0xeffff)).toBe(false);
    expect(isPrivateUse(0xf900)).toBe(false);
    expect(isPrivateUse(0xdfff)).toBe(false);
  });

  it('leaves unpaired surrogates and astral characters that are not private use as they are', () => {
    expect(mapPrivateUse('\udb80x\ue000')).toBe('\udb80x〓');
    expect(mapPrivateUse('\ue000\udc00')).toBe('〓\udc00');
    expect(mapPrivateUse('😀\u{f0000}😀')).toBe('😀〓😀');
    expect(mapPrivateUse('𠃗\ue000')).toBe('𠃗〓');
  });

  it('returns text without private-use code points unchanged', () => {
    const text = '한글 문서 ① □ 〓 ᄒᆞᆫ글 😀 \uf900 end';
    expect(mapPrivateUse(text)).toBe(text);
    expect(mapPrivateUse('')).toBe('');
  });

  it('never leaves a private-use code point in its output', () => {
    for (let codePoint = 0xe000; codePoint <= 0xf8ff; codePoint += 1) {
      expect(mapPrivateUse(`x${String.fromCodePoint(codePoint)}y`)).not.toMatch(PRIVATE_USE);
    }
    for (let codePoint = 0xf0000; codePoint <= 0xf0fff; codePoint += 1) {
      expect(mapPrivateUse(String.fromCodePoint(codePoint))).not.toMatch(PRIVATE_USE);
    }
  });
});
