/**
 * Defects a reader sees in a Markdown output whatever the reference: characters that should
 * never reach a document, emphasis markers printed literally, and page numbers left on lines of
 * their own. Pure, so the evalset suite can hold outputs to the same counts.
 */
import type { Nodes, Text } from 'mdast';
import { parseCommonMark } from './markdown';

export const HYGIENE_KINDS = [
  'controlCharacters',
  'replacementCharacters',
  'privateUse',
  'literalEmphasis',
  'pageNumberLines',
] as const;
export type HygieneKind = (typeof HYGIENE_KINDS)[number];

export type HygieneCounts = Record<HygieneKind, number>;

export interface HygieneExample {
  /** 1-based line of the Markdown. */
  line: number;
  /** The text around the defect, with control and private-use characters written as `<U+XXXX>`. */
  snippet: string;
}

export interface Hygiene {
  counts: HygieneCounts;
  /** For each non-zero count, its first few occurrences. */
  examples: Partial<Record<HygieneKind, HygieneExample[]>>;
}

/** Occurrences kept as examples per kind. */
export const HYGIENE_EXAMPLES = 3;

/** C0 controls other than tab, line feed and carriage return; DEL and the C1 controls. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const REPLACEMENT = /\uFFFD/g;
/** Private use: U+E000–U+F8FF and the private-use planes 15 and 16. */
const PRIVATE_USE = /\p{Co}/gu;
// eslint-disable-next-line no-control-regex -- shown escaped in snippets
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|\p{Co}/gu;

/**
 * An arabic number of 1–4 digits that is not a year (1800–2099: a year alone on a line is a date,
 * not a page number), or a roman numeral written in one case.
 */
const NUMERAL =
  '(?:(?!1[89]\\d\\d\\b|20\\d\\d\\b)\\d{1,4}|(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})' +
  '|(?=[IVXLCDM])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3}))';
/** A numeral alone, or between dashes (`- 12 -`, `— xiv —`); a numeral after a dash only is a list item. */
const PAGE_NUMBER = new RegExp(`^(?:${NUMERAL}|[-–—]\\s*${NUMERAL}\\s*[-–—])$`);

/** Where a defect is: its offset and length in the Markdown. */
interface Occurrence {
  offset: number;
  length: number;
}

/**
 * Counts the defects of a Markdown text:
 * - controlCharacters: C0 controls except tab, line feed and carriage return, DEL, C1 controls;
 * - replacementCharacters: U+FFFD, the trace of undecodable input;
 * - privateUse: code points of the private-use areas, which render as nothing or as tofu;
 * - literalEmphasis: `*` and `_` delimiter runs a CommonMark parse leaves as text (see literalEmphasis);
 * - pageNumberLines: lines outside code that hold nothing but a page number (`12`, `- 12 -`, `xiv`).
 */
export function hygiene(markdown: string): Hygiene {
  const tree = parseCommonMark(markdown);
  const lines = lineStarts(markdown);
  const found: Record<HygieneKind, Occurrence[]> = {
    controlCharacters: matches(markdown, CONTROL),
    replacementCharacters: matches(markdown, REPLACEMENT),
    privateUse: matches(markdown, PRIVATE_USE),
    literalEmphasis: literalEmphasis(markdown, tree),
    pageNumberLines: pageNumberLines(markdown, lines, tree),
  };
  const counts = {} as HygieneCounts;
  const examples: Hygiene['examples'] = {};
  for (const kind of HYGIENE_KINDS) {
    counts[kind] = found[kind].length;
    if (found[kind].length > 0) {
      examples[kind] = found[kind].slice(0, HYGIENE_EXAMPLES).map((o) => example(markdown, lines, o));
    }
  }
  return { counts, examples };
}

function matches(text: string, pattern: RegExp): Occurrence[] {
  return [...text.matchAll(pattern)].map((m) => ({ offset: m.index, length: m[0].length }));
}

// ---------------------------------------------------------------------------------------------
// Emphasis

/**
 * TeX math as the product writes it and renders it verbatim: `$$…$$` (over several lines too)
 * and `$…$` hugging its content, not followed by a digit (so `$5 and $6` is not math).
 */
const MATH = /\$\$[\s\S]+?\$\$|(?<!\\)\$(?=[^\s$])[^$\n|]*?(?<=[^\s\\])\$(?!\d)/g;

/** Nodes whose children are one stretch of inline text, within which emphasis can pair. */
const INLINE_BLOCKS = new Set<Nodes['type']>(['paragraph', 'heading', 'tableCell']);

interface Run {
  offset: number;
  length: number;
  char: string;
  /** Touches text on its right, so a reader takes it for an opening marker. */
  opens: boolean;
  /** Touches text on its left: a closing marker. */
  closes: boolean;
}

/**
 * Emphasis delimiters a CommonMark parse left as text, that is, printed to the reader as `*` or
 * `_`. Text nodes are read, and the text between the tags of raw HTML blocks (where a backslash
 * escape of a marker shows too); code, inline code, inline HTML and autolinks never count, nor
 * does TeX math (`a_{0}`), and only unescaped characters, so a deliberate `\*` does not. Within
 * what is left:
 * - a single `*` or `_` that stands apart, with whitespace on both sides (`2 * 3`), is a symbol,
 *   not a marker, and so is `**` between two operands (`2 ** 3`);
 * - a run of four or more touching no letter or digit is a mask or a rule (`'*****'`), while one
 *   that touches a word is two markers run together (`발사체****(KSLV-2)`);
 * - `_` between letters or digits is part of a word (`snake_case_name`), `*` between digits is
 *   arithmetic (`2*3`);
 * - in Markdown text, a run of two or more (`**`, `__`, `***`) is a broken marker;
 * - a single `*` or `_` is one only when it pairs with another in the same paragraph, heading or
 *   cell, an opener touching the text after it and a closer touching the text before it
 *   (`*“누리”*가`); a lone one is a footnote mark or a wildcard (`Revenue*`, `*.pdf`). In raw HTML
 *   the same holds for runs of two or more: `**Total**` is a marker nothing renders, a lone
 *   `**12,760` the document's own significance mark, shown as printed.
 */
function literalEmphasis(markdown: string, tree: Nodes): Occurrence[] {
  const math = matches(markdown, MATH);
  const inMath = (run: Run): boolean => math.some((m) => run.offset >= m.offset && run.offset < m.offset + m.length);
  const found: Occurrence[] = [];
  const judge = (runs: Run[], html: boolean): void => {
    // In Markdown text an unread run of two or more is a broken marker; in raw HTML, which never reads
    // them, it is one only when it pairs (`**Total**`): alone it is the document's own mark (`**12,760`).
    if (!html) for (const run of runs) if (run.length >= 2) found.push(run);
    const kinds = new Set(runs.filter((r) => html || r.length === 1).map((r) => `${r.char}${r.length}`));
    for (const kind of kinds) found.push(...pairedRuns(runs.filter((r) => `${r.char}${r.length}` === kind)));
  };
  const visit = (node: Nodes): void => {
    if (INLINE_BLOCKS.has(node.type)) {
      judge(
        textNodes(markdown, node)
          .flatMap((text) => delimiterRuns(markdown, text.position?.start.offset, text.position?.end.offset))
          .filter((run) => !inMath(run)),
        false,
      );
      return;
    }
    if (node.type === 'html') {
      for (const cell of htmlTextStretches(markdown, node)) {
        found.push(...htmlEscapes(markdown, cell));
        judge(
          delimiterRuns(markdown, cell.offset, cell.offset + cell.length).filter((run) => !inMath(run)),
          true,
        );
      }
      return;
    }
    if ('children' in node) for (const child of node.children as Nodes[]) visit(child);
  };
  visit(tree);
  return found.sort((a, b) => a.offset - b.offset);
}

/**
 * Emphasis and strikethrough delimiters the CommonMark + GFM parse did not read, for outputs
 * that must hold none: every unescaped `*`, `__` and `~~` in the source of a text node (outside
 * code, inline code and raw HTML). A writer escapes a literal asterisk (`\*`), so a text node
 * holding one, or `~~`, means a delimiter run that found no partner and is printed to the reader;
 * `_` alone is left to words (`snake_case`). Stricter than the literalEmphasis count, which lets
 * `2 * 3` and a lone `Revenue*` pass; raw HTML is that count's to judge.
 */
export function unreadDelimiters(markdown: string): HygieneExample[] {
  const lines = lineStarts(markdown);
  const found: Occurrence[] = [];
  const visit = (node: Nodes): void => {
    if (node.type === 'text') {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      if (start === undefined || end === undefined) return;
      for (let i = start; i < end; i++) {
        const char = markdown[i];
        if (char !== '*' && char !== '_' && char !== '~') continue;
        let j = i + 1;
        while (j < end && markdown[j] === char) j++;
        const unescaped = !escaped(markdown, i);
        const run = unescaped ? j - i : j - i - 1;
        if (char === '*' ? run >= 1 : run >= 2) found.push({ offset: i, length: j - i });
        i = j - 1;
      }
      return;
    }
    if ('children' in node) for (const child of node.children as Nodes[]) visit(child);
  };
  visit(parseCommonMark(markdown));
  return found.map((o) => example(markdown, lines, o));
}

/** The text nodes of an inline block in source order, leaving out the text of autolinks (`<url>`, bare URLs). */
function textNodes(markdown: string, node: Nodes): Text[] {
  if (node.type === 'text') return [node];
  if (node.type === 'link' && node.position && markdown[node.position.start.offset ?? 0] !== '[') return [];
  return 'children' in node ? (node.children as Nodes[]).flatMap((child) => textNodes(markdown, child)) : [];
}

/**
 * The text between the tags of a raw HTML block, where CommonMark reads no Markdown: a table
 * written as HTML shows its cells' `**`, `*` and backslash escapes exactly as typed.
 */
function htmlTextStretches(markdown: string, node: Nodes): Occurrence[] {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return [];
  const stretches: Occurrence[] = [];
  let from = start;
  for (const tag of markdown.slice(start, end).matchAll(/<[^>]*>|<!--[\s\S]*?-->/g)) {
    const at = start + tag.index;
    if (at > from) stretches.push({ offset: from, length: at - from });
    from = at + tag[0].length;
  }
  if (end > from) stretches.push({ offset: from, length: end - from });
  return stretches;
}

/** Backslash escapes of `*`, `_` and `~` in HTML text, which a reader sees with their backslash. */
function htmlEscapes(markdown: string, stretch: Occurrence): Occurrence[] {
  const text = markdown.slice(stretch.offset, stretch.offset + stretch.length);
  return [...text.matchAll(/\\[*_~]/g)].map((m) => ({ offset: stretch.offset + m.index, length: 2 }));
}

/** The unescaped `*` and `_` runs in a stretch of source text that can be taken for markers. */
function delimiterRuns(markdown: string, start: number | undefined, end: number | undefined): Run[] {
  if (start === undefined || end === undefined) return [];
  const runs: Run[] = [];
  for (let i = start; i < end; i++) {
    const char = markdown[i];
    if (char !== '*' && char !== '_') continue;
    if (escaped(markdown, i)) continue;
    let j = i + 1;
    while (j < end && markdown[j] === char) j++;
    const before = charBefore(markdown, i);
    const after = markdown.codePointAt(j);
    const spaceBefore = isSpace(before);
    const spaceAfter = isSpace(after);
    const inWord = char === '_' ? isWordChar(before) && isWordChar(after) : isDigit(before) && isDigit(after);
    const row = j - i >= 4 && !isWordChar(before) && !isWordChar(after);
    const apart = spaceBefore && spaceAfter && (j - i === 1 || powerOperator(markdown, i, j, start, end));
    if (!apart && !inWord && !row) {
      runs.push({ offset: i, length: j - i, char, opens: !spaceAfter, closes: !spaceBefore });
    }
    i = j - 1;
  }
  return runs;
}

/** Whether `**` at [from, to) stands between two operands within [start, end): `2 ** 3`, `x ** n`. */
function powerOperator(text: string, from: number, to: number, start: number, end: number): boolean {
  if (text[from] !== '*' || to - from !== 2) return false;
  const before = /(\S)\s*$/u.exec(text.slice(start, from))?.[1];
  const after = /^\s*(\S)/u.exec(text.slice(to, end))?.[1];
  return isWordChar(before?.codePointAt(0)) && isWordChar(after?.codePointAt(0));
}

/** Runs of one character and length that pair up as an opener followed by a closer, left to right. */
function pairedRuns(runs: Run[]): Run[] {
  const paired: Run[] = [];
  let opener: Run | undefined;
  for (const run of runs) {
    if (opener && run.closes) {
      paired.push(opener, run);
      opener = undefined;
    } else if (run.opens) {
      opener = run;
    }
  }
  return paired;
}

/** Whether the character at `index` is escaped by an odd number of backslashes. */
function escaped(text: string, index: number): boolean {
  let slashes = 0;
  for (let k = index - 1; k >= 0 && text[k] === '\\'; k--) slashes++;
  return slashes % 2 === 1;
}

/** The code point ending just before `index`, or undefined at the start. */
function charBefore(text: string, index: number): number | undefined {
  if (index === 0) return undefined;
  const low = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && index >= 2 ? text.codePointAt(index - 2) : low;
}

/** The start and end of a text count as whitespace, as CommonMark's flanking rules have it. */
function isSpace(code: number | undefined): boolean {
  return code === undefined || /\s/u.test(String.fromCodePoint(code));
}

function isWordChar(code: number | undefined): boolean {
  return code !== undefined && /[\p{L}\p{M}\p{N}]/u.test(String.fromCodePoint(code));
}

function isDigit(code: number | undefined): boolean {
  return code !== undefined && /\p{Nd}/u.test(String.fromCodePoint(code));
}

// ---------------------------------------------------------------------------------------------
// Page numbers

/** Lines whose trimmed text is a page number, outside code blocks and raw HTML blocks. */
function pageNumberLines(markdown: string, starts: number[], tree: Nodes): Occurrence[] {
  const verbatim = verbatimLines(tree);
  const found: Occurrence[] = [];
  starts.forEach((start, index) => {
    const line = lineAt(markdown, starts, index);
    const trimmed = line.trim();
    if (verbatim.has(index + 1) || !PAGE_NUMBER.test(trimmed)) return;
    found.push({ offset: start + line.length - line.trimStart().length, length: trimmed.length });
  });
  return found;
}

/** The 1-based lines covered by code blocks and raw HTML blocks, whose lines a reader does not see as text lines. */
function verbatimLines(tree: Nodes): Set<number> {
  const lines = new Set<number>();
  const visit = (node: Nodes): void => {
    if ((node.type === 'code' || node.type === 'html') && node.position) {
      for (let l = node.position.start.line; l <= node.position.end.line; l++) lines.add(l);
      return;
    }
    if ('children' in node) for (const child of node.children as Nodes[]) visit(child);
  };
  visit(tree);
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Examples

/** Offsets at which each line starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (const m of text.matchAll(/\r\n|\n|\r/g)) starts.push(m.index + m[0].length);
  return starts;
}

/** The text of the line with the given 0-based index, without its line ending. */
function lineAt(text: string, starts: number[], index: number): string {
  const end = index + 1 < starts.length ? starts[index + 1] : text.length;
  return text.slice(starts[index], end).replace(/\r?\n$|\r$/, '');
}

/** Characters of context kept on each side of an occurrence. */
const CONTEXT = 30;

/** An occurrence's line number and the text around it on that line, invisible characters made visible. */
function example(text: string, starts: number[], occurrence: Occurrence): HygieneExample {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= occurrence.offset) lo = mid;
    else hi = mid - 1;
  }
  const line = lineAt(text, starts, lo);
  const at = occurrence.offset - starts[lo];
  let from = Math.max(0, at - CONTEXT);
  let to = Math.min(line.length, at + occurrence.length + CONTEXT);
  if (isLowSurrogate(line.charCodeAt(from)) && from > 0) from--;
  if (isLowSurrogate(line.charCodeAt(to)) && to < line.length) to++;
  const snippet = `${from > 0 ? '…' : ''}${line.slice(from, to)}${to < line.length ? '…' : ''}`;
  return { line: lo + 1, snippet: visible(snippet) };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Control and private-use characters written as `<U+XXXX>`. */
function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`);
}
