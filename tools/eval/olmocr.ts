/**
 * Unit-test references: olmOCR-bench tests (`.tests.jsonl`: baseline, present, absent, order,
 * table, math) and markitdown-style string checks (`.checks.json`). Semantics follow olmOCR-bench:
 * texts are compared after its normalisation (emphasis markers and `<br>` removed, whitespace
 * collapsed, NFC, typographic quotes and dashes folded), case-sensitively unless a test says
 * otherwise. In present, absent and order tests `max_diffs` allows that many edits
 * (Levenshtein) in an approximate substring match. A baseline test with `max_length` is a
 * blank-page check (at most that many letters and digits); without it, the output must have
 * letters or digits, must not end in a run of one phrase repeated, and must not carry characters
 * no document shows (controls, U+FFFD, private use).
 */
import { codePoints, lcsLength, substringDistances } from './metrics';
import { headingsOf, tablesForTests, type Layout } from './olmocr-tables';

export type OutcomeStatus = 'passed' | 'failed' | 'skipped';

export interface TestOutcome {
  id: string;
  type: string;
  status: OutcomeStatus;
  /** Why it failed or was skipped. */
  reason?: string;
}

export interface PassRate {
  passed: number;
  failed: number;
  skipped: number;
  /** passed / (passed + failed); undefined when every test was skipped. */
  rate: number | undefined;
}

const FOLDED: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\uff3f': '_',
  '\u2013': '-',
  '\u2014': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2212': '-',
  '\u00b5': '\u03bc',
};

/**
 * olmOCR-bench's text normalisation, plus Markdown backslash escapes undone and each image link
 * read as its alternative text (a reader sees the picture, not the name of its file).
 */
export function olmocrNormalise(text: string): string {
  return text
    .replace(/!\[((?:\\.|[^\]\\])*)\]\([^)\s]*\)/g, '$1')
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<\/?[bi]>/gi, '')
    .replace(/(?<!\\)(\*\*|__)(.*?)(?<!\\)\1/g, '$2')
    .replace(/(?<!\\)(\*|_)(.*?)(?<!\\)\1/g, '$2')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1')
    .replace(/\s+/g, ' ')
    .normalize('NFC')
    .replace(/[\u2018\u2019\u201a\u201c\u201d\u201e\uff3f\u2013\u2014\u2011\u2012\u2212\u00b5]/g, (c) => FOLDED[c]);
}

/** Start offsets (in code points) of every approximate occurrence of `pattern` in `text`. */
function matchStarts(pattern: number[], text: number[], maxDiffs: number): number[] {
  if (maxDiffs === 0) {
    const starts: number[] = [];
    outer: for (let s = 0; s + pattern.length <= text.length; s++) {
      for (let k = 0; k < pattern.length; k++) if (text[s + k] !== pattern[k]) continue outer;
      starts.push(s);
    }
    return starts;
  }
  // Ends of matches in the reversed text are starts of matches in the text.
  const row = substringDistances([...pattern].reverse(), [...text].reverse());
  const starts: number[] = [];
  for (let e = text.length; e >= 1; e--) if (row[e] <= maxDiffs) starts.push(text.length - e);
  return starts;
}

function occurs(pattern: number[], text: number[], maxDiffs: number): boolean {
  if (maxDiffs === 0) return matchStarts(pattern, text, 0).length > 0;
  const row = substringDistances(pattern, text);
  for (let e = 0; e < row.length; e++) if (row[e] <= maxDiffs) return true;
  return false;
}

/** rapidfuzz's `fuzz.ratio`: 2·LCS / (|a| + |b|), 1 for two empty strings. */
export function indelRatio(a: string, b: string): number {
  const x = codePoints(a);
  const y = codePoints(b);
  if (x.length + y.length === 0) return 1;
  return (2 * lcsLength(x, y)) / (x.length + y.length);
}

// ---------------------------------------------------------------------------------------------
// Tests

function field(test: Record<string, unknown>, name: string): string {
  const value = test[name];
  return typeof value === 'string' ? value : '';
}

function maxDiffsOf(test: Record<string, unknown>): number {
  const value = test.max_diffs;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}

/** Parses a `.tests.jsonl` file: one JSON object per non-empty line; bad lines are reported, not fatal. */
export function parseTests(jsonl: string): { tests: Record<string, unknown>[]; errors: string[] } {
  const tests: Record<string, unknown>[] = [];
  const errors: string[] = [];
  jsonl.split(/\r?\n/).forEach((line, n) => {
    if (line.trim() === '') return;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        tests.push(value as Record<string, unknown>);
      } else {
        errors.push(`line ${n + 1}: not a JSON object`);
      }
    } catch (error) {
      errors.push(`line ${n + 1}: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return { tests, errors };
}

function presence(test: Record<string, unknown>, markdown: string): Omit<TestOutcome, 'id' | 'type'> {
  const present = test.type === 'present';
  const caseSensitive = test.case_sensitive !== false;
  const fold = (s: string): string => (caseSensitive ? s : s.toLowerCase());
  const query = codePoints(fold(olmocrNormalise(field(test, 'text'))));
  if (query.length === 0) return { status: 'skipped', reason: 'the test has no text' };
  let content = codePoints(fold(olmocrNormalise(markdown)));
  const firstN = typeof test.first_n === 'number' && test.first_n > 0 ? test.first_n : undefined;
  const lastN = typeof test.last_n === 'number' && test.last_n > 0 ? test.last_n : undefined;
  if (firstN !== undefined || lastN !== undefined) {
    content = [
      ...(firstN !== undefined ? content.slice(0, firstN) : []),
      ...(lastN !== undefined ? content.slice(-lastN) : []),
    ];
  }
  const maxDiffs = maxDiffsOf(test);
  const found = content.length >= query.length - maxDiffs && occurs(query, content, maxDiffs);
  const shown = field(test, 'text').slice(0, 60);
  if (present) {
    return found ? { status: 'passed' } : { status: 'failed', reason: `"${shown}" not found` };
  }
  return found ? { status: 'failed', reason: `"${shown}" found but must be absent` } : { status: 'passed' };
}

function order(test: Record<string, unknown>, markdown: string): Omit<TestOutcome, 'id' | 'type'> {
  const before = codePoints(olmocrNormalise(field(test, 'before')));
  const after = codePoints(olmocrNormalise(field(test, 'after')));
  if (before.length === 0 || after.length === 0) return { status: 'skipped', reason: 'the test lacks before or after' };
  const content = codePoints(olmocrNormalise(markdown));
  const maxDiffs = maxDiffsOf(test);
  const befores = matchStarts(before, content, maxDiffs);
  const afters = matchStarts(after, content, maxDiffs);
  if (befores.length === 0) return { status: 'failed', reason: `"${field(test, 'before').slice(0, 60)}" not found` };
  if (afters.length === 0) return { status: 'failed', reason: `"${field(test, 'after').slice(0, 60)}" not found` };
  return befores.reduce((a, b) => Math.min(a, b)) < afters.reduce((a, b) => Math.max(a, b))
    ? { status: 'passed' }
    : { status: 'failed', reason: 'found, but in the wrong order' };
}

/** A phrase repeated this many times in a row at the end of an output is a degenerate output. */
const MAX_REPEATS = 30;
/** Longest phrase, in characters, looked for by the repetition check. */
const MAX_REPEATED_PHRASE = 64;
// eslint-disable-next-line no-control-regex -- characters no document shows
const NEVER_SHOWN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFD\uE000-\uF8FF]|[\u{F0000}-\u{10FFFF}]/u;

/** Length of the shortest phrase repeated at least MAX_REPEATS times at the very end, if any. */
function trailingRepeat(text: string): number | undefined {
  const trimmed = text.trimEnd();
  for (let size = 1; size <= MAX_REPEATED_PHRASE; size++) {
    if (trimmed.length < size * MAX_REPEATS) return undefined;
    const phrase = trimmed.slice(-size);
    if (phrase.trim() === '') continue;
    if (trimmed.endsWith(phrase.repeat(MAX_REPEATS))) return size;
  }
  return undefined;
}

function baseline(test: Record<string, unknown>, markdown: string): Omit<TestOutcome, 'id' | 'type'> {
  const alphanumerics = (markdown.match(/[\p{L}\p{N}]/gu) ?? []).length;
  const maxLength = test.max_length;
  if (typeof maxLength === 'number' && maxLength >= 0) {
    return alphanumerics <= maxLength
      ? { status: 'passed' }
      : { status: 'failed', reason: `${alphanumerics} letters and digits on a page expected to be blank` };
  }
  if (alphanumerics === 0) return { status: 'failed', reason: 'the output has no letters or digits' };
  const repeated = trailingRepeat(markdown);
  if (repeated !== undefined) {
    return {
      status: 'failed',
      reason: `the output ends in a ${repeated}-character phrase repeated ${MAX_REPEATS}+ times`,
    };
  }
  const shown = NEVER_SHOWN.exec(markdown);
  if (shown) {
    const code = shown[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return { status: 'failed', reason: `the output contains U+${code}` };
  }
  return { status: 'passed' };
}

const RELATIONS = ['up', 'down', 'left', 'right', 'top_heading', 'left_heading'] as const;

/**
 * A cell whose whole text matches `cell` (olmOCR-bench's fuzz.ratio at least
 * max(0.5, 1 − max_diffs / length), so exactly when max_diffs is 0) in some table, with every
 * given neighbour or heading matching the same way.
 */
function tableTest(test: Record<string, unknown>, tables: Layout[]): Omit<TestOutcome, 'id' | 'type'> {
  const maxDiffs = maxDiffsOf(test);
  const threshold = (s: string): number => Math.max(0.5, 1 - maxDiffs / Math.max(1, codePoints(s).length));
  const wanted = olmocrNormalise(field(test, 'cell'));
  if (tables.length === 0) return { status: 'failed', reason: 'no tables in the output' };
  let cellFound = false;
  for (const table of tables) {
    for (let id = 0; id < table.cells.length; id++) {
      if (indelRatio(wanted, olmocrNormalise(table.cells[id].text)) < threshold(wanted)) continue;
      cellFound = true;
      const satisfied = RELATIONS.every((relation) => {
        const expected = olmocrNormalise(field(test, relation));
        if (expected === '') return true;
        const candidates =
          relation === 'top_heading'
            ? headingsOf(table, id, table.up)
            : relation === 'left_heading'
              ? headingsOf(table, id, table.left)
              : [...table[relation][id]];
        return candidates.some(
          (other) => indelRatio(expected, olmocrNormalise(table.cells[other].text)) >= threshold(expected),
        );
      });
      if (satisfied) return { status: 'passed' };
    }
  }
  const shown = field(test, 'cell').slice(0, 60);
  return {
    status: 'failed',
    reason: cellFound ? `cell "${shown}" found but its neighbours differ` : `no cell "${shown}" in any table`,
  };
}

/** Runs one olmOCR-bench test against Markdown. */
export function runTest(test: Record<string, unknown>, markdown: string): TestOutcome {
  return run(test, markdown, () => tablesForTests(markdown));
}

function run(test: Record<string, unknown>, markdown: string, tables: () => Layout[]): TestOutcome {
  const id = typeof test.id === 'string' ? test.id : '';
  const type = typeof test.type === 'string' ? test.type : '';
  const base = { id, type };
  if (test.checked === 'rejected') return { ...base, status: 'skipped', reason: 'the test was rejected by review' };
  switch (type) {
    case 'baseline':
      return { ...base, ...baseline(test, markdown) };
    case 'present':
    case 'absent':
      return { ...base, ...presence(test, markdown) };
    case 'order':
      return { ...base, ...order(test, markdown) };
    case 'table':
      return { ...base, ...tableTest(test, tables()) };
    case 'math':
      return { ...base, status: 'skipped', reason: 'math tests need LaTeX rendering, which this scorer does not do' };
    default:
      return { ...base, status: 'skipped', reason: `test type "${type}" is not supported` };
  }
}

/** Runs every test and counts them; skipped tests do not count towards the rate. */
export function runTests(
  tests: Record<string, unknown>[],
  markdown: string,
): { outcomes: TestOutcome[]; passRate: PassRate } {
  let tables: Layout[] | undefined;
  const outcomes = tests.map((test) => run(test, markdown, () => (tables ??= tablesForTests(markdown))));
  return { outcomes, passRate: rateOf(outcomes) };
}

function rateOf(outcomes: { status: OutcomeStatus }[]): PassRate {
  const passed = outcomes.filter((o) => o.status === 'passed').length;
  const failed = outcomes.filter((o) => o.status === 'failed').length;
  const skipped = outcomes.length - passed - failed;
  return { passed, failed, skipped, rate: passed + failed > 0 ? passed / (passed + failed) : undefined };
}

// ---------------------------------------------------------------------------------------------
// String checks

export interface Checks {
  mustInclude: string[];
  mustNotInclude: string[];
  /** Groups of alternatives: at least one member of each group must appear. */
  mustIncludeAny: string[][];
  caseSensitive: boolean;
}

function strings(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new Error(`${name} must be an array of strings`);
  }
  return value as string[];
}

/** Reads a `.checks.json` object; throws with a readable message when its shape is wrong. */
export function parseChecks(value: unknown): Checks {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('a checks file must hold a JSON object');
  }
  const raw = value as Record<string, unknown>;
  const groups = raw.must_include_any;
  if (groups !== undefined && !Array.isArray(groups)) throw new Error('must_include_any must be an array of arrays');
  return {
    mustInclude: strings(raw.must_include, 'must_include'),
    mustNotInclude: strings(raw.must_not_include, 'must_not_include'),
    mustIncludeAny: ((groups as unknown[] | undefined) ?? []).map((g, i) => strings(g, `must_include_any[${i}]`)),
    caseSensitive: raw.case_sensitive !== false,
  };
}

export interface CheckOutcome {
  check: 'must_include' | 'must_not_include' | 'must_include_any';
  value: string | string[];
  status: 'passed' | 'failed';
}

/** Each string of must_include and must_not_include, and each group of must_include_any, is one check. */
export function runChecks(checks: Checks, markdown: string): { outcomes: CheckOutcome[]; passRate: PassRate } {
  const fold = (s: string): string => (checks.caseSensitive ? s : s.toLowerCase()).normalize('NFC');
  const content = fold(markdown);
  const has = (s: string): boolean => content.includes(fold(s));
  const status = (ok: boolean): 'passed' | 'failed' => (ok ? 'passed' : 'failed');
  const outcomes: CheckOutcome[] = [
    ...checks.mustInclude.map((value) => ({ check: 'must_include' as const, value, status: status(has(value)) })),
    ...checks.mustNotInclude.map((value) => ({
      check: 'must_not_include' as const,
      value,
      status: status(!has(value)),
    })),
    ...checks.mustIncludeAny.map((value) => ({
      check: 'must_include_any' as const,
      value,
      status: status(value.some(has)),
    })),
  ];
  return { outcomes, passRate: rateOf(outcomes) };
}
