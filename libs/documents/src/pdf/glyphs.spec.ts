import { cleanText, fontTraits, isGlyphMark, joinOverlapping, mendLamAlef } from './glyphs';

describe('cleanText', () => {
  it('expands ligatures, drops invisible characters and control codes, and makes odd spaces plain', () => {
    expect(cleanText('\ufb01nal o\ufb03ce').text).toBe('final office');
    expect(cleanText('co\u00adoper\u200bate\u202e').text).toBe('cooperate');
    expect(cleanText('a\u00a0b\u2009c\u3000d\te').text).toBe('a b c d e');
    expect(cleanText('bell\u0007 and\u0002 nul\u0000').text).toBe('bell and nul');
  });

  it('calls a run garbage when control codes or private-use glyphs make up a third of it', () => {
    expect(cleanText('\u0003\u0004\u0005ab').garbage).toBe(true);
    expect(cleanText('\ue001\ue002x').garbage).toBe(true);
    expect(cleanText('Plain words with one \u0002').garbage).toBe(false);
    // A symbol-font bullet alone is a bullet, not garbage.
    expect(cleanText('\uf0b7').garbage).toBe(false);
  });
});

describe('fontTraits', () => {
  it('reads bold, italic, fixed-width and symbol faces from font names', () => {
    expect(fontTraits('ABCDEF+Helvetica-Bold')).toEqual({
      name: 'Helvetica-Bold',
      bold: true,
      italic: false,
      mono: false,
      symbol: false,
    });
    expect(fontTraits('CMBX10')).toMatchObject({ bold: true, italic: false });
    expect(fontTraits('Times-BoldItalic')).toMatchObject({ bold: true, italic: true });
    expect(fontTraits('Helvetica-Oblique')).toMatchObject({ bold: false, italic: true });
    expect(fontTraits('CMTI10')).toMatchObject({ italic: true });
    expect(fontTraits('MinionPro-It')).toMatchObject({ italic: true });
    expect(fontTraits('Titillium-Regular')).toMatchObject({ italic: false });
    expect(fontTraits('CourierNewPSMT')).toMatchObject({ mono: true, bold: false });
    expect(fontTraits('CMTT10')).toMatchObject({ mono: true });
    expect(fontTraits('Wingdings-Regular')).toMatchObject({ symbol: true });
    expect(fontTraits('TimesNewRomanPSMT')).toEqual({
      name: 'TimesNewRomanPSMT',
      bold: false,
      italic: false,
      mono: false,
      symbol: false,
    });
    expect(fontTraits(undefined)).toEqual({ name: undefined, bold: false, italic: false, mono: false, symbol: false });
  });
});

describe('isGlyphMark', () => {
  const plain = fontTraits('Arial');
  it('takes a symbol font glyph, a private-use bullet or a lone mark among control codes for a bullet', () => {
    expect(isGlyphMark('n', fontTraits('ZapfDingbats'))).toBe(true);
    expect(isGlyphMark('\uf0a7', plain)).toBe(true);
    expect(isGlyphMark('\u0002r', plain)).toBe(true);
  });
  it('leaves letters, words and digits alone', () => {
    expect(isGlyphMark('r', plain)).toBe(false);
    expect(isGlyphMark('word', plain)).toBe(false);
    expect(isGlyphMark('12', plain)).toBe(false);
  });
});

describe('mendLamAlef', () => {
  it('puts back lam-alef ligatures reversed with their line', () => {
    expect(mendLamAlef('األمم')).toBe('الأمم');
    expect(mendLamAlef('کاال')).toBe('کالا');
    expect(mendLamAlef('كتاب')).toBe('كتاب');
  });
});

describe('joinOverlapping', () => {
  it('puts a spacing accent on the letter drawn under it, before or after it', () => {
    expect(joinOverlapping('thank J\u00b4', 'an Min')).toBe('thank Ján Min');
    expect(joinOverlapping('Milan Ba\u02c7', 'si')).toBe('Milan Baši');
    expect(joinOverlapping('caf', 'e')).toBeUndefined();
    expect(joinOverlapping('nai', '\u00a8ve')).toBe('naïve');
  });
  it('leaves runs without an accent at the join to be joined as text', () => {
    expect(joinOverlapping('word', 'next')).toBeUndefined();
    expect(joinOverlapping('price\u00b4', '5')).toBeUndefined();
  });
});
