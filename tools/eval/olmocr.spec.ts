import { indelRatio, olmocrNormalise, parseChecks, parseTests, runChecks, runTest, runTests } from './olmocr';

const base = { pdf: 'x.pdf', page: 1, id: 't' };

describe('olmocrNormalise', () => {
  it('removes emphasis and breaks, collapses whitespace and folds typography', () => {
    expect(olmocrNormalise('**Euler’s**  _Identity_<br>is\n\n“neat” — ok')).toBe('Euler\'s Identity is "neat" - ok');
    expect(olmocrNormalise('1\\. not a list \\*star\\*')).toBe('1. not a list *star*');
  });

  it('reads an image link as its alternative text: the name of the picture file is no text of the page', () => {
    expect(olmocrNormalise('Before ![Figure 1: a \\[sketch\\]](images/p1-1.png) after')).toBe(
      'Before Figure 1: a [sketch] after',
    );
    expect(runTest({ type: 'absent', id: 'n', text: '1' }, '![Figure](images/p1-1.png)')).toMatchObject({
      status: 'passed',
    });
  });
});

describe('present and absent', () => {
  const markdown = '# Table 1\n\n**Table 1** Composition of the pretraining data for OLMo 2.\n\nPage 4';
  const present = (text: string, extra: object = {}): string =>
    runTest({ ...base, type: 'present', text, ...extra }, markdown).status;
  const absent = (text: string, extra: object = {}): string =>
    runTest({ ...base, type: 'absent', text, ...extra }, markdown).status;

  it('passes when the text is there, ignoring Markdown emphasis', () => {
    expect(present('Table 1 Composition of the pretraining data for OLMo 2.')).toBe('passed');
  });

  it('fails when the text is not there, or differs in case by default', () => {
    expect(present('Composition of the fine-tuning data')).toBe('failed');
    expect(present('table 1 composition')).toBe('failed');
    expect(present('table 1 composition', { case_sensitive: false })).toBe('passed');
  });

  it('allows up to max_diffs edits', () => {
    expect(present('Compositoin of the pretraining')).toBe('failed');
    expect(present('Compositoin of the pretraining', { max_diffs: 2 })).toBe('passed');
    expect(present('Compositoin of the pretraining', { max_diffs: 1 })).toBe('failed');
  });

  it('looks only at the first or last characters when asked', () => {
    expect(present('Page 4', { first_n: 20 })).toBe('failed');
    expect(present('Page 4', { last_n: 20 })).toBe('passed');
  });

  it('passes absent tests only when the text is missing', () => {
    expect(absent('Page 5')).toBe('passed');
    expect(absent('Page 4')).toBe('failed');
    expect(absent('Page 5', { max_diffs: 1 })).toBe('failed');
  });
});

describe('order', () => {
  const markdown =
    "## Euler's Identity\n\ne^{iπ}+1=0\n\n## Pythagorean Theorem\n\n## The Fundamental Theorem of Calculus";
  const order = (before: string, after: string, extra: object = {}): string =>
    runTest({ ...base, type: 'order', before, after, ...extra }, markdown).status;

  it('passes when before comes first', () => {
    expect(order("Euler's Identity", 'Pythagorean Theorem')).toBe('passed');
    expect(order('Euler’s Identity', 'The Fundamental Theorem of Calculus')).toBe('passed');
  });

  it('fails when the order is reversed or a text is missing', () => {
    expect(order('Pythagorean Theorem', "Euler's Identity")).toBe('failed');
    expect(order('Pythagorean Theorem', "Maxwell's Equations")).toBe('failed');
    expect(order("Maxwell's Equations", 'Pythagorean Theorem')).toBe('failed');
  });

  it('finds approximate occurrences with max_diffs', () => {
    expect(order('Pythagorian Theorem', 'Fundamental Theorem')).toBe('failed');
    expect(order('Pythagorian Theorem', 'Fundamental Theorem', { max_diffs: 1 })).toBe('passed');
    expect(order('Fundamental Theorem', 'Pythagorian Theorem', { max_diffs: 1 })).toBe('failed');
  });
});

describe('table', () => {
  const markdown = [
    'Table 1 Composition',
    '',
    '| Source | Type | Bytes | Words |',
    '|---|---|---|---|',
    '| DCLM | Web pages | 21.32T | 3.71T |',
    '| arXiv | STEM papers | **12.2B** | 3.32T |',
    '| Algebraic Stack | Math proofs code | 11.8B | 3.7B |',
  ].join('\n');
  const table = (fields: object): string => runTest({ ...base, type: 'table', ...fields }, markdown).status;

  it('finds a cell and checks its neighbours', () => {
    expect(table({ cell: 'STEM papers' })).toBe('passed');
    expect(table({ cell: '3.32T', up: '3.71T' })).toBe('passed');
    expect(table({ cell: '3.32T', left: '12.2B' })).toBe('passed');
    expect(table({ cell: '12.2B', right: '3.32T', down: '11.8B', up: '21.32T' })).toBe('passed');
    expect(table({ cell: '3.32T', top_heading: 'Words' })).toBe('passed');
    expect(table({ cell: 'Math proofs code', left_heading: 'Algebraic Stack' })).toBe('passed');
  });

  it('fails on a wrong neighbour, a missing cell, or no table at all', () => {
    expect(table({ cell: '3.32T', left: '3.71T' })).toBe('failed');
    expect(table({ cell: '3.32T', top_heading: 'Bytes' })).toBe('failed');
    expect(table({ cell: '99.9T' })).toBe('failed');
    expect(runTest({ ...base, type: 'table', cell: 'Type' }, 'no tables here').status).toBe('failed');
  });

  it('reads HTML tables with spans, whose heading is the spanning cell above', () => {
    const html =
      '<table><tr><th colspan="2">TEDs</th></tr><tr><td>simple</td><td>complex</td></tr>' +
      '<tr><td>0.965</td><td>0.934</td></tr></table>';
    const run = (fields: object): string => runTest({ ...base, type: 'table', ...fields }, html).status;
    expect(run({ cell: '0.934', top_heading: 'TEDs' })).toBe('passed');
    expect(run({ cell: '0.934', up: 'complex', left: '0.965' })).toBe('passed');
    expect(run({ cell: 'complex', up: 'TEDs' })).toBe('passed');
    expect(run({ cell: '0.934', up: 'simple' })).toBe('failed');
  });
});

describe('baseline', () => {
  const run = (test: Record<string, unknown>, markdown: string): string =>
    runTest({ ...base, id: 'b', type: 'baseline', ...test }, markdown).status;

  it('checks a blank page by its count of letters and digits', () => {
    expect(run({ max_length: 10 }, '')).toBe('passed');
    expect(run({ max_length: 10 }, '# 12\n\n- - -\n\n가나다')).toBe('passed');
    expect(run({ max_length: 10 }, 'eleven letters')).toBe('failed');
  });

  it('fails an output with no text, a trailing repetition, or characters no document shows', () => {
    expect(run({}, 'A page of text.')).toBe('passed');
    expect(run({}, '---\n\n| |\n|---|')).toBe('failed');
    expect(run({}, `Intro ${'the end '.repeat(30)}`)).toBe('failed');
    expect(run({}, `Intro ${'the end '.repeat(29)}`)).toBe('passed');
    expect(run({}, 'Arrow \uF0AE here')).toBe('failed');
    expect(run({}, 'Bell \u0007 here')).toBe('failed');
  });
});

describe('runTests', () => {
  it('skips math and rejected tests and leaves them out of the rate', () => {
    const { tests, errors } = parseTests(
      [
        JSON.stringify({ ...base, id: 'a', type: 'present', text: 'hello' }),
        JSON.stringify({ ...base, id: 'b', type: 'present', text: 'absent text' }),
        JSON.stringify({ ...base, id: 'c', type: 'math', math: 'e^{i\\pi}+1=0' }),
        JSON.stringify({ ...base, id: 'd', type: 'present', text: 'hello', checked: 'rejected' }),
        '',
        'not json',
      ].join('\n'),
    );
    expect(errors).toHaveLength(1);
    const { outcomes, passRate } = runTests(tests, 'hello world');
    expect(outcomes.map((o) => o.status)).toEqual(['passed', 'failed', 'skipped', 'skipped']);
    expect(passRate).toEqual({ passed: 1, failed: 1, skipped: 2, rate: 0.5 });
  });

  it('has no rate when every test is skipped', () => {
    expect(runTests([{ ...base, type: 'math', math: 'x' }], '').passRate.rate).toBeUndefined();
  });
});

describe('indelRatio', () => {
  it('matches rapidfuzz fuzz.ratio', () => {
    expect(indelRatio('abc', 'abc')).toBe(1);
    expect(indelRatio('', '')).toBe(1);
    expect(indelRatio('abcd', 'abce')).toBeCloseTo(0.75);
    expect(indelRatio('abc', '')).toBe(0);
  });
});

describe('string checks', () => {
  it('reads the markitdown shape', () => {
    const checks = parseChecks({
      must_include_any: [
        ['1', 'one'],
        ['2', 'two'],
      ],
      case_sensitive: false,
      note: 'x',
    });
    expect(checks).toEqual({
      mustInclude: [],
      mustNotInclude: [],
      mustIncludeAny: [
        ['1', 'one'],
        ['2', 'two'],
      ],
      caseSensitive: false,
    });
  });

  it('refuses a wrong shape with a readable message', () => {
    expect(() => parseChecks([])).toThrow('JSON object');
    expect(() => parseChecks({ must_include: 'x' })).toThrow('must_include must be an array of strings');
    expect(() => parseChecks({ must_include_any: [[1]] })).toThrow('must_include_any[0]');
  });

  it('counts each included, excluded and any-of check', () => {
    const checks = parseChecks({
      must_include: ['Title', 'missing'],
      must_not_include: ['secret', 'Title'],
      must_include_any: [
        ['One', '1'],
        ['two', 'deux'],
      ],
    });
    const { outcomes, passRate } = runChecks(checks, '# Title\n\nOne and 2');
    expect(outcomes.map((o) => `${o.check}:${String(o.value)}:${o.status}`)).toEqual([
      'must_include:Title:passed',
      'must_include:missing:failed',
      'must_not_include:secret:passed',
      'must_not_include:Title:failed',
      'must_include_any:One,1:passed',
      'must_include_any:two,deux:failed',
    ]);
    expect(passRate.rate).toBeCloseTo(3 / 6);
  });

  it('is case-sensitive unless told otherwise', () => {
    const content = 'ONE TWO';
    expect(runChecks(parseChecks({ must_include: ['one'] }), content).passRate.rate).toBe(0);
    expect(runChecks(parseChecks({ must_include: ['one'], case_sensitive: false }), content).passRate.rate).toBe(1);
  });
});
