import type { InlineRun } from '../markdown/emphasis';

/** Opening delimiters hwpjs writes around a stretch of text (strikethrough outermost, italic innermost), longest first. */
const OPENERS = ['~~***', '~~**', '~~*', '~~', '***', '**', '*'];

/** HTML tags, runs of `*` and `~`, and the text between them. */
const TOKENS = /<\/?[A-Za-z][^<>]*>|[*~]+|[^<*~]+|</g;
const LINE_BREAK_TAG = /^<br\s*\/?>$/i;

/**
 * What a reading of the delimiters costs, so that the likeliest one wins when the text holds
 * asterisks or tildes of its own. Every stretch opened costs one. A delimiter character read as
 * text costs more, and more again when the rest of its run is read as delimiters. A `**` read as
 * the end of one italic stretch and the start of the next costs extra, since hwpjs writes `**`
 * for bold far more often: `5*3 **굵게** 2*4` is bold between literal asterisks, not italic.
 * Lines hwpjs writes from text without `*` and `~` read back as written, but for italic
 * stretches side by side.
 */
const OPEN_COST = 1;
const ITALIC_AGAIN_COST = 2;
const LITERAL_COST = 2;
const LITERAL_BESIDE_DELIMITERS_COST = 4;

/** How one run of delimiters is read: whether it closes the open stretch, and the stretch it opens (`''` for none); the rest of it is literal text. */
interface Reading {
  closes: boolean;
  opens: string;
}

/** A reading of the line so far: the stretch left open, whether that stretch holds text (not only delimiters) yet, the cost, and how it got here. */
interface Path {
  open: string;
  filled: boolean;
  cost: number;
  previous?: Path;
  reading?: Reading;
}

/**
 * The formatted runs of one line of hwpjs Markdown.
 *
 * hwpjs writes every stretch of text with one character shape as `~~***text***~~` (whichever of
 * the three apply), side by side and without escaping the text: `**이름****으로**` is two bold
 * stretches, `** 약 **` a bold stretch with spaces at its ends, and an asterisk may be literal.
 * The runs of `*` and `~` are read as hwpjs writes them: every stretch holds some text and is
 * closed before the line or a `<br>` ends, a run closes the open stretch by starting with its
 * closer and may open the next one right after, and what is left of a run is literal text. Of
 * the readings that fit, the cheapest wins (see OPEN_COST). HTML tags are kept as they are,
 * `<br>` as a line break.
 */
export function hwpjsInlineRuns(line: string): InlineRun[] {
  const tokens = [...line.matchAll(TOKENS)].map((m) => m[0]);
  const readings = readDelimiters(tokens);
  const runs: InlineRun[] = [];
  let open = '';
  let text = '';
  let next = 0;
  const flush = (): void => {
    if (text !== '') runs.push({ kind: 'text', text, ...(open ? styleOf(open) : {}) });
    text = '';
  };
  for (const token of tokens) {
    if (isTag(token)) {
      flush();
      runs.push({ kind: LINE_BREAK_TAG.test(token) ? 'break' : 'raw', markdown: token });
    } else if (!isDelimiterRun(token)) {
      text += token;
    } else {
      const { closes, opens } = readings[next++] ?? { closes: false, opens: '' };
      let literal = token;
      if (closes) {
        flush();
        literal = literal.slice(open.length);
        open = '';
      }
      if (opens) {
        flush();
        literal = literal.slice(opens.length);
        open = opens;
      }
      text += literal;
    }
  }
  flush();
  return runs;
}

/** The cheapest reading of every run of delimiters in the line, in order. */
function readDelimiters(tokens: string[]): Reading[] {
  let paths = new Map<string, Path>([['|false', { open: '', filled: false, cost: 0 }]]);
  for (const token of tokens) {
    if (isTag(token) && LINE_BREAK_TAG.test(token)) {
      paths = new Map([...paths].filter(([, p]) => p.open === ''));
    } else if (isTag(token) || (!isDelimiterRun(token) && /\S/.test(token))) {
      const filled = new Map<string, Path>();
      for (const path of paths.values()) keepCheapest(filled, { ...path, filled: path.open !== '' });
      paths = filled;
    } else if (isDelimiterRun(token)) {
      const next = new Map<string, Path>();
      for (const path of paths.values()) for (const step of steps(path, token)) keepCheapest(next, step);
      paths = next;
    }
  }
  const readings: Reading[] = [];
  for (let p = paths.get('|false'); p?.reading; p = p.previous) readings.push(p.reading);
  return readings.reverse();
}

/**
 * The ways a run of delimiters can continue a reading: all of it literal; or, when no stretch is
 * open or the run starts with the open stretch's closer (and the stretch holds text), closing it
 * and opening the next stretch with what follows, the rest literal.
 */
function steps(path: Path, run: string): Path[] {
  const out: Path[] = [];
  const step = (closes: boolean, opens: string, literal: number): void => {
    const open = opens || (closes ? '' : path.open);
    const filled = !closes && !opens && path.filled;
    const perLiteral = closes || opens ? LITERAL_BESIDE_DELIMITERS_COST : LITERAL_COST;
    const opening = opens ? OPEN_COST + (closes && opens === '*' && path.open === '*' ? ITALIC_AGAIN_COST : 0) : 0;
    const cost = path.cost + opening + literal * perLiteral;
    out.push({ open, filled, cost, previous: path, reading: { closes, opens } });
  };
  step(false, '', run.length);
  const closes = path.open !== '';
  const closer = [...path.open].reverse().join('');
  if (closes && !(path.filled && run.startsWith(closer))) return out;
  const rest = run.slice(closer.length);
  if (closes) step(true, '', rest.length);
  for (const opener of OPENERS) if (rest.startsWith(opener)) step(closes, opener, rest.length - opener.length);
  return out;
}

function keepCheapest(paths: Map<string, Path>, path: Path): void {
  const key = `${path.open}|${path.filled}`;
  const known = paths.get(key);
  if (!known || path.cost < known.cost) paths.set(key, path);
}

function isTag(token: string): boolean {
  return token.length > 1 && token.startsWith('<');
}

function isDelimiterRun(token: string): boolean {
  return token.startsWith('*') || token.startsWith('~');
}

function styleOf(opener: string): { strike: boolean; bold: boolean; italic: boolean } {
  const stars = opener.replace(/~/g, '').length;
  return { strike: opener.startsWith('~~'), bold: stars >= 2, italic: stars % 2 === 1 };
}
