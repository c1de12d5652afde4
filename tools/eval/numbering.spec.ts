import { labelOf, markdownLabels, numberingScore, textLabels } from './numbering';

describe('labelOf', () => {
  it.each([
    ['1. 목적', '1.'],
    ['  2) 범위', '2)'],
    ['(3) 기간', '(3)'],
    ['1.2. 세부', '1.2.'],
    ['가. 개요', '가.'],
    ['나) 내용', '나)'],
    ['(다) 기타', '(다)'],
    ['ㄱ. 첫째', 'ㄱ.'],
    ['① 신청', '①'],
    ['②신청', '②'],
    ['㉮ 항목', '㉮'],
    ['Ⅱ. 본론', 'Ⅱ.'],
    ['Ⅲ 결론', 'Ⅲ'],
    ['i. first', 'i.'],
    ['iv) fourth', 'iv)'],
    ['A. Annex', 'A.'],
    ['(a) item', '(a)'],
    ['１．전각', '1.'],
    ['（가）전각', '(가)'],
  ])('%s opens with %s', (line, label) => {
    expect(labelOf(line)).toBe(label);
  });

  it.each([
    '1.5톤급 실용위성',
    '3.5 m',
    '2018. 9. 4.(화) 조간',
    '47.2 m',
    '다.음',
    '가나다',
    '□ 과학기술정보통신부',
    'o 한국형발사체는',
    'e.g. this',
    '10,000건',
    '',
  ])('%s opens with no label', (line) => {
    expect(labelOf(line)).toBeUndefined();
  });
});

describe('textLabels', () => {
  it('takes the labels opening lines, in order', () => {
    expect(textLabels('제목\n1. 목적\n본문 2. 아님\n 가. 세부\n(1) 하위\n2. 범위')).toEqual(['1.', '가.', '(1)', '2.']);
  });
});

describe('markdownLabels', () => {
  it('reads through headings, emphasis and backslash escapes', () => {
    expect(markdownLabels('# Ⅰ. 서론\n\n## 1\\. 목적\n\n**가.** 개요\n\n*나)* 내용\n\n본문 1. 아님\n')).toEqual([
      'Ⅰ.',
      '1.',
      '가.',
      '나)',
    ]);
  });

  it('labels ordered list items with the numbers the list renders and its delimiter', () => {
    expect(markdownLabels('3. a\n1. b\n\n- (가) c\n- d\n\n1) e\n2) f\n')).toEqual(['3.', '4.', '(가)', '1)', '2)']);
  });

  it('reads every line of a paragraph, table cell and HTML table', () => {
    const markdown = [
      '① 첫째  \n② 둘째',
      '',
      '| 구분 | 내용 |',
      '| --- | --- |',
      '| 1. 가 | ㄱ. 하나<br>ㄴ. 둘 |',
      '',
      '<table><tr><td>(1) 셀</td><td>본문</td></tr></table>',
      '',
    ].join('\n');
    expect(markdownLabels(markdown)).toEqual(['①', '②', '1.', 'ㄱ.', 'ㄴ.', '(1)']);
  });
});

describe('numberingScore', () => {
  it('compares the sequences by their longest common subsequence', () => {
    const score = numberingScore(['1.', '2.', '가.', '3.'], ['1.', '가.', '나.', '2.', '3.'])!;
    expect(score.common).toBe(3);
    expect(score.precision).toBeCloseTo(3 / 4);
    expect(score.recall).toBeCloseTo(3 / 5);
    expect(score.f1).toBeCloseTo((2 * 0.75 * 0.6) / 1.35);
  });

  it('is 1 for the same labels, 0 for none, and undefined without reference labels', () => {
    expect(numberingScore(['1.', '2.'], ['1.', '2.'])!.f1).toBe(1);
    expect(numberingScore([], ['1.'])!.f1).toBe(0);
    expect(numberingScore(['1.'], [])).toBeUndefined();
  });
});
