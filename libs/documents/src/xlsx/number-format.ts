import { formatDate } from './date-format';
import { formatGeneral, parseSection, roundTo, splitSections, type Section, type Token } from './number-format-codes';

/**
 * Numbers as Excel displays them: the section of the format code that applies to the value
 * (by sign or condition), then digits, grouping, percent, exponent and fraction placeholders.
 */

const sectionCache = new Map<string, Section[]>();

/** The text Excel shows for a number under a format code. */
export function formatNumber(value: number, code: string, date1904 = false): string {
  let sections = sectionCache.get(code);
  if (!sections) {
    sections = splitSections(code).map(parseSection);
    if (sectionCache.size > 1000) sectionCache.clear();
    sectionCache.set(code, sections);
  }
  const numeric = sections.filter((_, i) => i < 3);
  let section: Section | undefined;
  let magnitude = value;
  let signed = true; // whether the section shows the sign itself
  if (numeric.some((s) => s.condition)) {
    section = numeric.find((s) => s.condition && compare(value, s.condition)) ?? numeric.find((s) => !s.condition);
    if (section && section !== numeric[0] && value < 0) magnitude = Math.abs(value);
    signed = section === numeric[0] || value >= 0;
  } else if (value < 0 && numeric.length >= 2) {
    section = numeric[1];
    magnitude = -value;
  } else if (value === 0 && numeric.length >= 3) section = numeric[2];
  else section = numeric[0];
  if (!section) return formatGeneral(value);
  if (section.isDate) return formatDate(value, section.tokens, date1904);
  const text = formatWithTokens(Math.abs(magnitude), section.tokens);
  return (magnitude < 0 && signed && text !== '' && /[1-9]/.test(text) ? '-' : '') + text;
}

function compare(value: number, condition: { op: string; value: number }): boolean {
  switch (condition.op) {
    case '<':
      return value < condition.value;
    case '<=':
      return value <= condition.value;
    case '>':
      return value > condition.value;
    case '>=':
      return value >= condition.value;
    case '=':
      return value === condition.value;
    case '<>':
      return value !== condition.value;
    default:
      return false;
  }
}

function formatWithTokens(value: number, tokens: Token[]): string {
  // General, and the text placeholder, which shows a number as General
  if (tokens.some((t) => t.kind === 'general' || t.kind === 'text')) {
    return tokens
      .map((t) =>
        t.kind === 'general' || t.kind === 'text' ? formatGeneral(value) : t.kind === 'literal' ? t.text : '',
      )
      .join('')
      .trim();
  }
  const digitIndexes = tokens.flatMap((t, i) => (t.kind === 'digit' ? [i] : []));
  if (digitIndexes.length === 0) {
    // no digits: the section is all literal (e.g. "-" for zero in accounting formats)
    return tokens
      .map((t) => (t.kind === 'literal' ? t.text : t.kind === 'percent' ? '%' : ''))
      .join('')
      .trim();
  }
  const first = digitIndexes[0];
  const last = digitIndexes[digitIndexes.length - 1];
  const slash = tokens.findIndex((t, i) => t.kind === 'slash' && i > first && i < last);
  let scaled = value;
  for (const t of tokens) if (t.kind === 'percent') scaled *= 100;
  // commas right after the last digit placeholder divide by a thousand each
  for (let i = last + 1; i < tokens.length && tokens[i].kind === 'comma'; i++) scaled /= 1000;

  const number =
    slash >= 0
      ? fractionText(scaled, tokens.slice(first, last + 1), slash - first)
      : decimalText(scaled, tokens.slice(first, last + 1));
  const before = tokens
    .slice(0, first)
    .map((t) => tokenText(t))
    .join('');
  const after = tokens
    .slice(last + 1)
    .map((t) => tokenText(t))
    .join('');
  return `${before}${number}${after}`.trim();
}

function tokenText(t: Token): string {
  switch (t.kind) {
    case 'literal':
      return t.text;
    case 'percent':
      return '%';
    case 'point':
      return '.';
    default:
      return '';
  }
}

/** Digits for the placeholders between the first and the last one (integer part, decimals, exponent). */
function decimalText(value: number, tokens: Token[]): string {
  const exponentAt = tokens.findIndex((t) => t.kind === 'exponent');
  const mantissaTokens = exponentAt >= 0 ? tokens.slice(0, exponentAt) : tokens;
  const pointAt = mantissaTokens.findIndex((t) => t.kind === 'point');
  const intTokens = pointAt >= 0 ? mantissaTokens.slice(0, pointAt) : mantissaTokens;
  const fracTokens = pointAt >= 0 ? mantissaTokens.slice(pointAt + 1) : [];
  const fracDigits = fracTokens.filter((t) => t.kind === 'digit') as { kind: 'digit'; char: string }[];
  const grouping = intTokens.some((t) => t.kind === 'comma');

  let mantissa = value;
  let exponentText = '';
  if (exponentAt >= 0) {
    const expTokens = tokens.slice(exponentAt + 1).filter((t) => t.kind === 'digit');
    const intPlaces = Math.max(1, intTokens.filter((t) => t.kind === 'digit').length);
    let exponent = value === 0 ? 0 : Math.floor(Math.log10(value));
    // engineering style (##0.0E+0): exponents in multiples of the integer placeholders
    if (intPlaces > 1) exponent = Math.floor(exponent / intPlaces) * intPlaces;
    mantissa = value === 0 ? 0 : value / 10 ** exponent;
    if (roundTo(mantissa, fracDigits.length) >= 10 ** intPlaces) {
      exponent += intPlaces > 1 ? intPlaces : 1;
      mantissa = value / 10 ** exponent;
    }
    const sign = (tokens[exponentAt] as { sign: string }).sign;
    exponentText = `E${exponent < 0 ? '-' : sign === '+' ? '+' : ''}${String(Math.abs(exponent)).padStart(Math.max(1, expTokens.length), '0')}`;
  }

  const rounded = roundTo(mantissa, fracDigits.length);
  const fixed = rounded.toFixed(fracDigits.length);
  const [intPart, fracPart = ''] = fixed.split('.');

  // fractional digits: trailing zeros dropped under '#', blanked under '?'
  let frac = fracPart.split('');
  for (let i = frac.length - 1; i >= 0 && frac[i] === '0'; i--) {
    if (fracDigits[i].char === '#') frac.pop();
    else if (fracDigits[i].char === '?') frac[i] = ' ';
    else break;
  }
  frac = frac.slice(0, fracDigits.length);
  const fracLiterals = fracTokens
    .filter((t) => t.kind === 'literal')
    .map((t) => (t as { text: string }).text)
    .join('');

  const intText = fillInteger(intPart === '0' ? '' : intPart, intTokens, grouping);
  const point = pointAt >= 0 ? '.' : '';
  return `${intText}${point}${frac.join('')}${fracLiterals}${exponentText}`;
}

/** Places integer digits into their placeholders right to left, keeping literals between them (phone numbers, IDs). */
function fillInteger(digits: string, tokens: Token[], grouping: boolean): string {
  const placeholders = tokens.filter((t) => t.kind === 'digit') as { kind: 'digit'; char: string }[];
  const minimum = placeholders.filter((p) => p.char === '0').length;
  const hasLiterals = tokens.some((t) => t.kind === 'literal');
  if (!hasLiterals || grouping) {
    let text = digits.padStart(minimum, '0');
    if (grouping) text = text.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    const spaces = placeholders.filter((p) => p.char === '?').length - Math.max(minimum, digits.length);
    return (spaces > 0 ? ' '.repeat(spaces) : '') + text;
  }
  let remaining = digits;
  const out: string[] = [];
  let placeholdersLeft = placeholders.length;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i];
    if (t.kind === 'literal') {
      out.unshift(t.text);
      continue;
    }
    if (t.kind !== 'digit') continue;
    placeholdersLeft--;
    if (placeholdersLeft === 0) {
      out.unshift(remaining || (t.char === '0' ? '0' : t.char === '?' ? ' ' : ''));
      remaining = '';
    } else if (remaining) {
      out.unshift(remaining.slice(-1));
      remaining = remaining.slice(0, -1);
    } else out.unshift(t.char === '0' ? '0' : t.char === '?' ? ' ' : '');
  }
  return out.join('');
}

/** Fractions (`# ?/?`, `# ??/100`): the best fraction with the denominator's digits. */
function fractionText(value: number, tokens: Token[], slashAt: number): string {
  const denominatorTokens = tokens.slice(slashAt + 1);
  const fixedDenominator = Number(
    denominatorTokens
      .filter((t) => t.kind === 'literal')
      .map((t) => (t as { text: string }).text)
      .join('')
      .trim(),
  );
  const numeratorTokens = tokens.slice(0, slashAt);
  // a space-separated whole part before the numerator makes a mixed fraction
  const splitAt = numeratorTokens.findIndex((t) => t.kind === 'literal' && /\s/.test(t.text));
  const mixed = splitAt > 0;
  const whole = mixed ? Math.floor(value) : 0;
  const rest = value - whole;
  let numerator: number;
  let denominator: number;
  if (fixedDenominator > 0) {
    denominator = fixedDenominator;
    numerator = Math.round(rest * denominator);
  } else {
    const places = Math.max(1, denominatorTokens.filter((t) => t.kind === 'digit').length);
    [numerator, denominator] = bestFraction(rest, 10 ** places - 1);
  }
  if (numerator === denominator && mixed) return String(whole + 1);
  if (numerator === 0) return mixed ? String(whole) : '0';
  return `${mixed && whole ? `${whole} ` : ''}${numerator}/${denominator}`;
}

function bestFraction(value: number, maxDenominator: number): [number, number] {
  let best: [number, number] = [Math.round(value), 1];
  let bestError = Math.abs(value - best[0]);
  for (let d = 1; d <= maxDenominator; d++) {
    const n = Math.round(value * d);
    const error = Math.abs(value - n / d);
    if (error < bestError - 1e-12) {
      best = [n, d];
      bestError = error;
    }
  }
  return best;
}
