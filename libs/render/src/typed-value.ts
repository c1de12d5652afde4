/** A spreadsheet value recognised in cell text, with the number format that shows it as it was written. */
export interface TypedValue {
  value: string | number | Date;
  numFmt?: string;
}

/**
 * Reads cell text as the value a spreadsheet should hold: a number (`1,234.5`, European `1.234,5`),
 * a percentage (`12.5%` → 0.125), an amount of money (`$1,200.00`, `€ 15`, `₩1,000`, `1,000원`) or a date
 * (`2024-03-05`, `2024.03.05`, `2024/3/5`, `5 March 2024`, `March 5, 2024`, `2024년 3월 5일`), a date with a time
 * (`2024-01-01 0:00:00`, `2024-03-05T14:30`) or a time of day (`14:30`, `9:05:30`).
 * Anything else, including numbers with leading zeros (codes, postcodes) and numbers beyond 15 significant
 * digits (identifiers that would lose digits), stays text exactly as given.
 */
export function typedValue(text: string): TypedValue {
  const trimmed = text.trim();
  if (trimmed === '') return { value: text };
  return (
    percentValue(trimmed) ??
    currencyValue(trimmed) ??
    numberValue(trimmed) ??
    dateValue(trimmed) ??
    dateTimeValue(trimmed) ??
    timeValue(trimmed) ?? { value: text }
  );
}

// ---- numbers ------------------------------------------------------------------------------

interface ParsedNumber {
  value: number;
  decimals: number;
  grouped: boolean;
  /** Written in accounting style, `(1,234)`. */
  parenthesised: boolean;
}

const US_GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const PLAIN = /^(?:\d+(?:\.\d+)?|\.\d+)$/;
const EUROPEAN_GROUPED = /^\d{1,3}(?:\.\d{3})+(?:,\d+)?$/;
const EUROPEAN_DECIMAL = /^\d+,\d+$/;
const MAX_DIGITS = 15;

/**
 * Parses an unsigned or signed number in one of the notations we accept. A comma followed by exactly three
 * digits is read as a thousands separator (`1,234` is 1234); `1.234` is a decimal; `1.234.567`, `1.234,5`
 * and `12,5` can only be European and are read that way.
 */
function parseNumber(text: string): ParsedNumber | null {
  let body = text;
  let sign = 1;
  let parenthesised = false;
  if (/^\(.*\)$/.test(body)) {
    body = body.slice(1, -1).trim();
    sign = -1;
    parenthesised = true;
  } else if (/^[-+\u2212]/.test(body)) {
    sign = body[0] === '+' ? 1 : -1;
    body = body.slice(1).trim();
  }
  const notation = numberNotation(body);
  if (!notation) return null;
  const digits = body.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  if (digits.length > MAX_DIGITS) return null;
  if (/^0\d/.test(body)) return null;
  const normalised = notation === 'us' ? body.replace(/,/g, '') : body.replace(/\./g, '').replace(',', '.');
  const value = Number(normalised) * sign;
  if (!Number.isFinite(value)) return null;
  const decimalMark = notation === 'us' ? '.' : ',';
  const decimals = body.includes(decimalMark) ? body.length - body.lastIndexOf(decimalMark) - 1 : 0;
  const grouped = notation === 'us' ? body.includes(',') : body.includes('.');
  return { value: value === 0 ? 0 : value, decimals, grouped, parenthesised };
}

function numberNotation(body: string): 'us' | 'european' | null {
  if (US_GROUPED.test(body) || PLAIN.test(body)) return 'us';
  if (EUROPEAN_GROUPED.test(body)) return 'european';
  if (EUROPEAN_DECIMAL.test(body) && body.length - body.indexOf(',') - 1 !== 3) return 'european';
  return null;
}

/** `#,##0.00`-style pattern with the written number of decimals, grouped when the text was grouped. */
function numberPattern(parsed: ParsedNumber, forceGrouping = false): string {
  const integer = parsed.grouped || forceGrouping ? '#,##0' : '0';
  return parsed.decimals > 0 ? `${integer}.${'0'.repeat(parsed.decimals)}` : integer;
}

function withNegativeStyle(pattern: string, parsed: ParsedNumber): string {
  return parsed.parenthesised ? `${pattern};(${pattern})` : pattern;
}

function numberValue(text: string): TypedValue | null {
  const parsed = parseNumber(text);
  if (!parsed) return null;
  return { value: parsed.value, numFmt: withNegativeStyle(numberPattern(parsed), parsed) };
}

function percentValue(text: string): TypedValue | null {
  const match = /^(.+?)\s*[%％]$/.exec(text);
  const parsed = match ? parseNumber(match[1]) : null;
  if (!parsed) return null;
  const value = Number((parsed.value / 100).toPrecision(MAX_DIGITS));
  const decimals = parsed.decimals > 0 ? `.${'0'.repeat(parsed.decimals)}` : '';
  return { value, numFmt: `0${decimals}%` };
}

// ---- money ----------------------------------------------------------------------------------

const PREFIX_SYMBOLS = ['US$', '$', '€', '£', '¥', '₩', '₹', '￦', '￥'];
const SUFFIX_SYMBOLS = ['원', '円', '元', '€'];
const CURRENCY_CODES = ['USD', 'EUR', 'KRW', 'JPY', 'GBP', 'CNY'];

/** Money: a symbol or ISO code before or after a number; a minus may stand before the symbol (`-$5`). */
function currencyValue(text: string): TypedValue | null {
  const negative = /^[-\u2212]/.test(text);
  const body = negative ? text.slice(1).trim() : text;
  for (const symbol of [...PREFIX_SYMBOLS, ...CURRENCY_CODES]) {
    if (!body.startsWith(symbol)) continue;
    const rest = body.slice(symbol.length);
    const parsed = parseNumber(rest.trim());
    if (!parsed) continue;
    const literal = `"${symbol}${/^\s/.test(rest) ? ' ' : ''}"`;
    return money(parsed, negative, (pattern) => `${literal}${pattern}`);
  }
  for (const symbol of [...SUFFIX_SYMBOLS, ...CURRENCY_CODES]) {
    if (!body.endsWith(symbol)) continue;
    const rest = body.slice(0, -symbol.length);
    const parsed = parseNumber(rest.trim());
    if (!parsed) continue;
    const literal = `"${/\s$/.test(rest) ? ' ' : ''}${symbol}"`;
    return money(parsed, negative, (pattern) => `${pattern}${literal}`);
  }
  return null;
}

function money(parsed: ParsedNumber, negative: boolean, format: (pattern: string) => string): TypedValue {
  const value = negative ? -Math.abs(parsed.value) : parsed.value;
  const pattern = format(numberPattern(parsed, true));
  return { value: value === 0 ? 0 : value, numFmt: parsed.parenthesised ? `${pattern};(${pattern})` : pattern };
}

// ---- dates ----------------------------------------------------------------------------------

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const NUMERIC_DATES: RegExp[] = [
  /^(\d{4})-(\d{1,2})-(\d{1,2})$/,
  /^(\d{4})\.\s?(\d{1,2})\.\s?(\d{1,2})\.?$/,
  /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/,
  /^(\d{4})\s*[년年]\s*(\d{1,2})\s*[월月]\s*(\d{1,2})\s*[일日]$/,
];

const DAY_MONTH_YEAR = /^(\d{1,2})\.?\s+([A-Za-z]+)\.?,?\s+(\d{4})$/;
const MONTH_DAY_YEAR = /^([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/;

/** Dates in year-first numeric forms or with an English month name; day-first/month-first numerals are ambiguous and stay text. */
function dateValue(text: string): TypedValue | null {
  for (const pattern of NUMERIC_DATES) {
    const match = pattern.exec(text);
    if (match) return calendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
  }
  const dayFirst = DAY_MONTH_YEAR.exec(text);
  if (dayFirst) return calendarDate(Number(dayFirst[3]), monthNumber(dayFirst[2]), Number(dayFirst[1]));
  const monthFirst = MONTH_DAY_YEAR.exec(text);
  if (monthFirst) return calendarDate(Number(monthFirst[3]), monthNumber(monthFirst[1]), Number(monthFirst[2]));
  return null;
}

function monthNumber(name: string): number {
  const lower = name.toLowerCase();
  const full = [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ];
  const index = lower.length === 3 || lower === 'sept' ? MONTHS.indexOf(lower.slice(0, 3)) : full.indexOf(lower);
  return index + 1;
}

/** A UTC midnight date when year, month and day form a real day from 1900 on (what spreadsheets can show). */
function calendarDate(year: number, month: number, day: number): TypedValue | null {
  if (year < 1900 || month < 1 || month > 12 || day < 1) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null;
  return { value: date, numFmt: 'yyyy-mm-dd' };
}

// ---- times ----------------------------------------------------------------------------------

const DATE_TIME = /^(\d{4})[-./](\d{1,2})[-./](\d{1,2})[T\s]+(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
const SECONDS_PER_DAY = 86_400;

/** A date with a time of day; midnight shows as the date alone, as a spreadsheet export of a date column writes it. */
function dateTimeValue(text: string): TypedValue | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const day = calendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
  const seconds = secondsOfDay(match[4], match[5], match[6]);
  if (!day || seconds === null) return null;
  const value = new Date((day.value as Date).getTime() + seconds * 1000);
  if (seconds === 0) return { value, numFmt: 'yyyy-mm-dd' };
  return { value, numFmt: match[6] === undefined ? 'yyyy-mm-dd hh:mm' : 'yyyy-mm-dd hh:mm:ss' };
}

/** A time of day, stored as the fraction of a day spreadsheets use. */
function timeValue(text: string): TypedValue | null {
  const match = TIME.exec(text);
  const seconds = match ? secondsOfDay(match[1], match[2], match[3]) : null;
  if (seconds === null) return null;
  return { value: seconds / SECONDS_PER_DAY, numFmt: match![3] === undefined ? 'h:mm' : 'h:mm:ss' };
}

function secondsOfDay(hours: string, minutes: string, seconds: string | undefined): number | null {
  const h = Number(hours);
  const m = Number(minutes);
  const s = seconds === undefined ? 0 : Number(seconds);
  return h < 24 && m < 60 && s < 60 ? h * 3600 + m * 60 + s : null;
}
