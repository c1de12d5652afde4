import { formatGeneral, type Token } from './number-format-codes';

/**
 * Dates and times under Excel's format codes: serial numbers (days from 1900, with Excel's
 * 29 February 1900, or from 1904) as the date, time and elapsed-time tokens spell them.
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface DateParts {
  year: number;
  month: number;
  day: number;
  weekday: number;
  hours: number;
  minutes: number;
  seconds: number;
  fraction: number;
}

function dateParts(serial: number, date1904: boolean): DateParts {
  let days = Math.floor(serial);
  let time = Math.round((serial - days) * 86400 * 1000) / 1000;
  if (time >= 86400) {
    days += 1;
    time -= 86400;
  }
  let date: Date;
  let weekday: number;
  if (date1904) {
    date = new Date(Date.UTC(1904, 0, 1 + days));
    weekday = date.getUTCDay();
  } else if (days === 60) {
    // Excel's 29 February 1900, which never was
    return { year: 1900, month: 2, day: 29, weekday: 3, ...timeParts(time) };
  } else {
    date = new Date(Date.UTC(1899, 11, days < 60 ? 31 + days : 30 + days));
    weekday = date.getUTCDay();
  }
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday,
    ...timeParts(time),
  };
}

function timeParts(time: number): Pick<DateParts, 'hours' | 'minutes' | 'seconds' | 'fraction'> {
  const whole = Math.floor(time);
  return {
    hours: Math.floor(whole / 3600),
    minutes: Math.floor((whole % 3600) / 60),
    seconds: whole % 60,
    fraction: time - whole,
  };
}

export function isoToSerial(iso: string, date1904: boolean): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?/.exec(iso.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi)) + Number(s) * 1000;
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  let serial = (ms - epoch) / 86400000;
  if (!date1904 && serial < 61) serial -= 1;
  return serial;
}

export function formatDate(serial: number, tokens: Token[], date1904: boolean): string {
  if (serial < 0 || serial > 2958465) return formatGeneral(serial);
  const subsecondDigits = subsecondPlaces(tokens);
  const rounded = subsecondDigits > 0 ? serial : Math.round(serial * 86400) / 86400;
  const parts = dateParts(rounded, date1904);
  const twelveHour = tokens.some((t) => t.kind === 'ampm');
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    switch (t.kind) {
      case 'literal':
        out += t.text;
        break;
      case 'date':
        out += dateToken(t.code, i, tokens, parts, twelveHour, pad);
        break;
      case 'ampm': {
        const pm = parts.hours >= 12;
        out += t.code.length > 3 ? (pm ? 'PM' : 'AM') : pm ? 'P' : 'A';
        break;
      }
      case 'elapsed': {
        const totalSeconds = Math.round(serial * 86400);
        const value =
          t.unit === 'h'
            ? Math.floor(totalSeconds / 3600)
            : t.unit === 'm'
              ? Math.floor(totalSeconds / 60)
              : totalSeconds;
        out += pad(value, t.width);
        break;
      }
      case 'point': {
        const zeros = countZerosAfter(tokens, i);
        if (zeros > 0) {
          out += `.${pad(Math.round(parts.fraction * 10 ** zeros), zeros).slice(0, zeros)}`;
          i += zeros;
        } else out += '.';
        break;
      }
      case 'digit':
        out += t.char === '0' ? '0' : '';
        break;
      case 'comma':
        out += ',';
        break;
      case 'percent':
        out += '%';
        break;
      case 'slash':
        out += '/';
        break;
      default:
        break;
    }
  }
  return out.trim();
}

function subsecondPlaces(tokens: Token[]): number {
  const at = tokens.findIndex((t) => t.kind === 'point');
  return at >= 0 ? countZerosAfter(tokens, at) : 0;
}

function countZerosAfter(tokens: Token[], at: number): number {
  let zeros = 0;
  for (let j = at + 1; j < tokens.length; j++) {
    const t = tokens[j];
    if (t.kind === 'digit' && t.char === '0') zeros++;
    else break;
  }
  return zeros;
}

function dateToken(
  code: string,
  index: number,
  tokens: Token[],
  p: DateParts,
  twelveHour: boolean,
  pad: (n: number, width: number) => string,
): string {
  switch (code[0]) {
    case 'y':
      return code.length <= 2 ? pad(p.year % 100, 2) : String(p.year);
    case 'd':
      if (code.length === 1) return String(p.day);
      if (code.length === 2) return pad(p.day, 2);
      if (code.length === 3) return DAYS[p.weekday].slice(0, 3);
      return DAYS[p.weekday];
    case 'h': {
      const hours = twelveHour ? p.hours % 12 || 12 : p.hours;
      return code.length === 1 ? String(hours) : pad(hours, 2);
    }
    case 's':
      return code.length === 1 ? String(p.seconds) : pad(p.seconds, 2);
    case 'm': {
      if (code.length <= 2 && isMinute(index, tokens)) return code.length === 1 ? String(p.minutes) : pad(p.minutes, 2);
      if (code.length === 1) return String(p.month);
      if (code.length === 2) return pad(p.month, 2);
      if (code.length === 3) return MONTHS[p.month - 1].slice(0, 3);
      if (code.length === 5) return MONTHS[p.month - 1][0];
      return MONTHS[p.month - 1];
    }
    default:
      return code;
  }
}

/** `m` and `mm` are minutes right after an hour or right before a second, months otherwise. */
function isMinute(index: number, tokens: Token[]): boolean {
  for (let j = index - 1; j >= 0; j--) {
    const t = tokens[j];
    if (t.kind === 'date') return t.code[0] === 'h';
    if (t.kind === 'elapsed') return t.unit === 'h';
  }
  for (let j = index + 1; j < tokens.length; j++) {
    const t = tokens[j];
    if (t.kind === 'date') return t.code[0] === 's';
    if (t.kind === 'elapsed') return t.unit === 's';
  }
  return false;
}
