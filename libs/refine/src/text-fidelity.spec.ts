import { measureFidelity, textTokens } from './text-fidelity';

describe('textTokens', () => {
  it('keeps words and numbers, lower-cased, and leaves Markdown syntax and HTML out', () => {
    expect(textTokens('## **Total** | 1,200 |<br>_net_ &amp; [more](https://x.io)')).toEqual([
      'total',
      '1',
      '200',
      'net',
      'more',
      'https',
      'x',
      'io',
    ]);
  });

  it('joins words hyphenated at a line break and normalises ligatures', () => {
    expect(textTokens('conver-\nsion ﬁnal')).toEqual(['conversion', 'final']);
  });

  it('counts each character of scripts written without spaces, and Korean by words', () => {
    expect(textTokens('東京都 한국어 문서')).toEqual(['東', '京', '都', '한국어', '문서']);
  });
});

describe('measureFidelity', () => {
  const original = 'Region Revenue\nNorth 1,200\nSouth 950';

  it('sees reformatting and reordering as the same text', () => {
    const table = '| Region | Revenue |\n| --- | --- |\n| South | 950 |\n| North | 1,200 |';
    expect(measureFidelity(original, table)).toMatchObject({ kept: 1, added: 0, originalTokens: 7 });
  });

  it('counts words by multiplicity, so a repeated word dropped once is missed', () => {
    expect(measureFidelity('yes yes no no', 'yes no no').kept).toBe(0.75);
  });

  it('counts new and duplicated words as added, except allowed ones', () => {
    const answer = '| Area | Revenue |\n| --- | --- |\n| North | 1,200 |\n| South | 950 |\n| South | 950 |';
    expect(measureFidelity(original, answer).added).toBeCloseTo(3 / 9);
    expect(measureFidelity(original, answer, ['Area']).added).toBeCloseTo(2 / 9);
  });

  it('treats an original without words as fully kept', () => {
    expect(measureFidelity('---', '')).toEqual({ originalTokens: 0, answerTokens: 0, kept: 1, added: 0 });
  });
});
