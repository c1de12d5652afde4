import { formatNumber, NumberingCounter, numberFormat, type Numbering } from './numbering';

const OUTLINE: Numbering = {
  levels: [
    { pattern: '^1.', format: 'DIGIT', start: 1 },
    { pattern: '^2.', format: 'HANGUL_SYLLABLE', start: 1 },
    { pattern: '^3)', format: 'DIGIT', start: 1 },
    { pattern: '(^4)', format: 'HANGUL_SYLLABLE', start: 1 },
    { pattern: '^1.^2.^5', format: 'CIRCLED_DIGIT', start: 3 },
  ],
};

describe('Hancom numbering', () => {
  it.each([
    [1, 'DIGIT', '1'],
    [12, 'CIRCLED_DIGIT', '⑫'],
    [21, 'CIRCLED_DIGIT', '21'],
    [14, 'ROMAN_CAPITAL', 'XIV'],
    [9, 'ROMAN_SMALL', 'ix'],
    [28, 'LATIN_CAPITAL', 'AB'],
    [3, 'CIRCLED_LATIN_SMALL', 'ⓒ'],
    [2, 'HANGUL_SYLLABLE', '나'],
    [15, 'HANGUL_SYLLABLE', '가'],
    [4, 'CIRCLED_HANGUL_SYLLABLE', '㉱'],
    [3, 'HANGUL_JAMO', 'ㄷ'],
    [6, 'HANGUL_PHONETIC', '육'],
    [4, 'IDEOGRAPH', '四'],
    [2, 'DECAGON_CIRCLE', '을'],
    [3, 'DECAGON_CIRCLE_HANJA', '丙'],
  ] as const)('%i in %s is %s', (n, format, expected) => {
    expect(formatNumber(n, format)).toBe(expected);
  });

  it('names formats by HWPX name or HWP 5 code, digits for anything unknown', () => {
    expect(numberFormat('HANGUL_SYLLABLE')).toBe('HANGUL_SYLLABLE');
    expect(numberFormat(8)).toBe('HANGUL_SYLLABLE');
    expect(numberFormat(1)).toBe('CIRCLED_DIGIT');
    expect(numberFormat('SOMETHING_NEW')).toBe('DIGIT');
    expect(numberFormat(99)).toBe('DIGIT');
  });

  it('counts each level, starts deeper levels again under a new parent, and fills levels not yet used', () => {
    const counter = new NumberingCounter();
    const labels = [0, 1, 1, 2, 2, 1, 0, 1, 3, 4].map((level) => counter.next('outline', OUTLINE, level));
    expect(labels).toEqual(['1.', '가.', '나.', '1)', '2)', '다.', '2.', '가.', '(가)', '2.가.③']);
  });

  it('keeps numberings apart and starts one again on request', () => {
    const counter = new NumberingCounter();
    expect(counter.next('a', OUTLINE, 0)).toBe('1.');
    expect(counter.next('b', OUTLINE, 0)).toBe('1.');
    expect(counter.next('a', OUTLINE, 0)).toBe('2.');
    counter.restart('a', 5);
    expect(counter.next('a', OUTLINE, 0)).toBe('5.');
    expect(counter.next('a', OUTLINE, 1)).toBe('가.');
  });
});
