/**
 * Excel's number format codes, parsed: the built-in formats by id, a code's sections (up to
 * four, with their conditions) as tokens, and the two formats every other one falls back on
 * (General, and rounding as Excel rounds). `number-format.ts` applies them.
 */

/** Excel's built-in formats; short dates are written ISO 8601, the one reading no locale confuses. */
export const BUILT_IN_FORMATS: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  5: '#,##0_);(#,##0)',
  6: '#,##0_);[Red](#,##0)',
  7: '#,##0.00_);(#,##0.00)',
  8: '#,##0.00_);[Red](#,##0.00)',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'yyyy-mm-dd',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'yyyy-mm-dd h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  41: '_(* #,##0_);_(* (#,##0);_(* "-"_);_(@_)',
  42: '_("$"* #,##0_);_("$"* (#,##0);_("$"* "-"_);_(@_)',
  43: '_(* #,##0.00_);_(* (#,##0.00);_(* "-"??_);_(@_)',
  44: '_("$"* #,##0.00_);_("$"* (#,##0.00);_("$"* "-"??_);_(@_)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mm:ss.0',
  48: '##0.0E+0',
  49: '@',
  ...Object.fromEntries(
    [27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58].map((id) => [id, 'yyyy-mm-dd']),
  ),
};

export type Token =
  | { kind: 'literal'; text: string }
  | { kind: 'digit'; char: '0' | '#' | '?' }
  | { kind: 'point' }
  | { kind: 'comma' }
  | { kind: 'percent' }
  | { kind: 'exponent'; sign: '+' | '-' }
  | { kind: 'slash' }
  | { kind: 'text' }
  | { kind: 'general' }
  | { kind: 'date'; code: string }
  | { kind: 'ampm'; code: string }
  | { kind: 'elapsed'; unit: 'h' | 'm' | 's'; width: number };

export interface Section {
  tokens: Token[];
  condition?: { op: string; value: number };
  isDate: boolean;
}

export function splitSections(code: string): string[] {
  const sections: string[] = [];
  let current = '';
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '"') {
      const end = code.indexOf('"', i + 1);
      const stop = end < 0 ? code.length : end;
      current += code.slice(i, stop + 1);
      i = stop;
    } else if (ch === '\\' || ch === '_' || ch === '*') {
      current += code.slice(i, i + 2);
      i++;
    } else if (ch === '[') {
      const end = code.indexOf(']', i);
      const stop = end < 0 ? code.length : end;
      current += code.slice(i, stop + 1);
      i = stop;
    } else if (ch === ';') {
      sections.push(current);
      current = '';
    } else current += ch;
  }
  sections.push(current);
  return sections;
}

const LONG_DATE = 'dddd, mmmm d, yyyy';
const LONG_TIME = 'h:mm:ss AM/PM';

export function parseSection(source: string): Section {
  const tokens: Token[] = [];
  let condition: Section['condition'];
  let code = source;
  if (/\[\$-F800\]/i.test(code)) code = LONG_DATE;
  else if (/\[\$-F400\]/i.test(code)) code = LONG_TIME;
  const literal = (text: string) => tokens.push({ kind: 'literal', text });
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    const rest = code.slice(i);
    if (ch === '"') {
      const end = code.indexOf('"', i + 1);
      const stop = end < 0 ? code.length : end;
      literal(code.slice(i + 1, stop));
      i = stop;
    } else if (ch === '\\') {
      literal(code[i + 1] ?? '');
      i++;
    } else if (ch === '_') {
      literal(' ');
      i++;
    } else if (ch === '*') {
      i++;
    } else if (ch === '[') {
      const end = code.indexOf(']', i);
      const inner = code.slice(i + 1, end < 0 ? code.length : end);
      i = end < 0 ? code.length : end;
      const elapsed = /^(h+|m+|s+)$/i.exec(inner);
      const cond = /^(<=|>=|<>|<|>|=)\s*(-?[\d.]+)$/.exec(inner);
      if (elapsed)
        tokens.push({
          kind: 'elapsed',
          unit: elapsed[1][0].toLowerCase() as 'h' | 'm' | 's',
          width: elapsed[1].length,
        });
      else if (cond) condition = { op: cond[1], value: Number(cond[2]) };
      else if (inner.startsWith('$')) {
        const symbol = inner.slice(1).split('-')[0];
        if (symbol) literal(symbol);
      }
    } else if (/^general/i.test(rest)) {
      tokens.push({ kind: 'general' });
      i += 6;
    } else if (/^(am\/pm|a\/p)/i.test(rest)) {
      const text = /^(am\/pm|a\/p)/i.exec(rest)![0];
      tokens.push({ kind: 'ampm', code: text });
      i += text.length - 1;
    } else if (/^[eE][+-]/.test(rest) && tokens.some((t) => t.kind === 'digit')) {
      tokens.push({ kind: 'exponent', sign: rest[1] as '+' | '-' });
      i++;
    } else if (/[yYmMdDhHsS]/.test(ch)) {
      let j = i;
      while (j < code.length && code[j].toLowerCase() === ch.toLowerCase()) j++;
      tokens.push({ kind: 'date', code: code.slice(i, j).toLowerCase() });
      i = j - 1;
    } else if (ch === '0' || ch === '#' || ch === '?') tokens.push({ kind: 'digit', char: ch });
    else if (ch === '.') tokens.push({ kind: 'point' });
    else if (ch === ',') tokens.push({ kind: 'comma' });
    else if (ch === '%') tokens.push({ kind: 'percent' });
    else if (ch === '/') tokens.push({ kind: 'slash' });
    else if (ch === '@') tokens.push({ kind: 'text' });
    else literal(ch);
  }
  const isDate = tokens.some((t) => t.kind === 'date' || t.kind === 'elapsed' || t.kind === 'ampm');
  // in a date, '.' followed by zeros is a fraction of a second, and '0' is its digit
  return { tokens, condition, isDate };
}

/** Excel's General: up to 11 characters, integers whole, very large or small numbers in scientific notation. */
export function formatGeneral(value: number): string {
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1e11 || abs < 1e-9) {
    const [mantissa, exponent] = value.toExponential(5).split('e');
    const exp = Number(exponent);
    return `${mantissa.replace(/\.?0+$/, '')}E${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (Number.isInteger(value)) return String(value);
  const intLength = String(Math.trunc(abs)).length + (value < 0 ? 1 : 0);
  const decimals = Math.max(0, 10 - intLength);
  return roundTo(value, decimals)
    .toFixed(decimals)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}

/** Rounds half away from zero in decimal, as Excel does (1.005 → 1.01). */
export function roundTo(value: number, decimals: number): number {
  if (Math.abs(value) >= 1e21) return value;
  const shifted = Number(`${Math.abs(value)}e${decimals}`);
  const rounded = Number(`${Math.round(shifted)}e-${decimals}`);
  return Number.isFinite(rounded) ? Math.sign(value) * rounded : value;
}
