import { equationInline, toLatex } from './equation';

describe('Hancom equation script as LaTeX', () => {
  it.each([
    ['a over b', '\\frac{a}{b}'],
    ['{x+1} over {x-1}', '\\frac{x + 1}{x - 1}'],
    ['sqrt {b^2 - 4ac}', '\\sqrt{b ^{2} - 4 ac}'],
    ['root 3 of x', '\\sqrt[3]{x}'],
    ['sum from {i=1} to n a_i', '\\sum_{i = 1}^{n} a _{i}'],
    ['lim from {x -> 0} f(x)', '\\lim_{x - > 0} f ( x )'],
    ['alpha times BETA + GAMMA', '\\alpha \\times BETA + \\Gamma'],
    ['left ( a right )', '\\left( a \\right)'],
    ['matrix{a & b # c & d}', '\\begin{matrix}a & b \\\\ c & d\\end{matrix}'],
    ['rm kg cdot m', 'kg \\cdot m'],
    ['"속도" = d over t', '\\text{속도} = \\frac{d}{t}'],
  ])('%s', (script, latex) => {
    expect(toLatex(script)).toBe(latex);
  });

  it('writes inline math, and keeps a script whose braces do not balance as code so no text is lost', () => {
    expect(equationInline('E = mc^2')).toEqual({ kind: 'math', tex: 'E = mc ^{2}' });
    expect(equationInline('{a over b')).toEqual({ kind: 'text', text: '{a over b', code: true });
    expect(equationInline('a } b')).toEqual({ kind: 'text', text: 'a } b', code: true });
    expect(equationInline('   ')).toBeUndefined();
  });
});
