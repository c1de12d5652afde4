import { alignHeadings, headingStructure, markdownHeadings, type Heading } from './headings';

const h = (level: number, text: string): Heading => ({ level, text });

describe('markdownHeadings', () => {
  it('reads levels and plain text in document order, not headings in code or lines that only look like them', () => {
    const markdown = [
      '# **Annual** report',
      '',
      'Intro with a # inside.',
      '',
      '```',
      '# not a heading',
      '```',
      '',
      '### Results `v2` ###',
      '',
      '#hashtag is text',
      '',
      'Setext title',
      '============',
    ].join('\n');
    expect(markdownHeadings(markdown)).toEqual([h(1, 'Annual report'), h(3, 'Results v2'), h(1, 'Setext title')]);
  });
});

describe('headingStructure', () => {
  const reference = [h(1, 'Introduction'), h(2, 'Background'), h(2, 'Method'), h(1, 'Results')];

  it('scores 1 for the same outline written one level deeper', () => {
    const shifted = reference.map((x) => h(x.level + 1, x.text));
    expect(headingStructure(shifted, reference)).toEqual({
      predicted: 4,
      reference: 4,
      matched: 4,
      precision: 1,
      recall: 1,
      f1: 1,
      levelAgreement: 1,
      score: 1,
    });
  });

  it('counts the pairs the reference nests that the output nests otherwise against level agreement', () => {
    // Everything flattened to one level: none of the four nested pairs keeps its order.
    const flat = reference.map((x) => h(2, x.text));
    expect(headingStructure(flat, reference)).toMatchObject({ f1: 1, levelAgreement: 0, score: 0 });
    // Results put under Method: two of the four nested pairs (Background–Results, Method–Results) turn.
    const sunk = [h(1, 'Introduction'), h(2, 'Background'), h(2, 'Method'), h(3, 'Results')];
    expect(headingStructure(sunk, reference).levelAgreement).toBe(0.5);
  });

  it('does not judge nesting a reference leaves flat', () => {
    const flatReference = reference.map((x) => h(2, x.text));
    expect(headingStructure(reference, flatReference).levelAgreement).toBe(1);
  });

  it('matches texts that differ a little and not those that differ more', () => {
    const output = [h(1, 'Introductoin'), h(2, 'Background'), h(2, 'Methods and data'), h(1, 'RESULTS:')];
    const score = headingStructure(output, reference);
    expect(score.matched).toBe(3);
    expect(score.precision).toBe(0.75);
    expect(score.recall).toBe(0.75);
    expect(score.score).toBeCloseTo(0.75);
  });

  it('aligns in order: a heading moved past others pairs only once the order allows', () => {
    expect(alignHeadings(['Results', 'Introduction', 'Background'], ['Introduction', 'Background', 'Results'])).toEqual(
      [
        [1, 0],
        [2, 1],
      ],
    );
    // Repeated titles pair with the nearest ones in order.
    expect(alignHeadings(['Notes', 'Notes'], ['Summary', 'Notes', 'Notes'])).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });

  it('penalises missing and spurious headings', () => {
    expect(headingStructure([], reference).score).toBe(0);
    expect(headingStructure([], reference).recall).toBe(0);
    expect(headingStructure([h(2, 'Page 3')], []).precision).toBe(0);
    expect(headingStructure([h(2, 'Page 3')], []).score).toBe(0);
    expect(headingStructure([], []).score).toBe(1);
    const extra = headingStructure([...reference, h(3, 'Figure 1'), h(3, 'Table 2')], reference);
    expect(extra.precision).toBeCloseTo(4 / 6);
    expect(extra.recall).toBe(1);
    expect(extra.f1).toBeCloseTo(0.8);
  });

  it('reads headings out of the Markdown on both sides', () => {
    const output = '## Introduction\n\ntext\n\n### Background\n\n### Method\n\n## Results\n';
    const ref = '# Introduction\n\n## Background\n\n## Method\n\n# Results\n';
    expect(headingStructure(markdownHeadings(output), markdownHeadings(ref)).score).toBe(1);
  });
});
