import { withoutDroppedCharacters } from '@docconv/characters';
import type { Nodes, PhrasingContent, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/** One stretch of inline text with uniform formatting, as the parser read it and the renderers write it. */
export interface InlineRun {
  text: string;
  bold: boolean;
  italic: boolean;
  strike: boolean;
  code: boolean;
  /** Target of the link the run belongs to, or null. */
  link: string | null;
  /** A picture (`![alt](src)`): the run's text is its alt text, which renderers without the picture write instead. */
  image?: { src: string; alt: string };
}

type RunStyle = Omit<InlineRun, 'text' | 'image'>;

const PLAIN: RunStyle = { bold: false, italic: false, strike: false, code: false, link: null };

/** One parser for every call: building one costs more than parsing a paragraph. */
const PARSER = unified().use(remarkParse).use(remarkGfm).freeze();

/** Private-use characters around the index of a verbatim stretch; Markdown gives them no meaning. */
const PLACEHOLDER_OPEN = '\uE000';
const PLACEHOLDER = /\uE000(\d+)\uE001/g;

/**
 * Parses our Markdown (CommonMark with GFM tables, strikethrough, autolinks and task lists) into an mdast tree.
 *
 * LaTeX math (`$...$`, `$$...$$`) comes through verbatim as text: it is set aside before parsing so that
 * backslash escapes such as `\{` or `\_` are not consumed as Markdown escapes. Blank lines inside raw HTML
 * tables are dropped first, since CommonMark would otherwise end the HTML block there and split the table.
 * Characters no output carries (`withoutDroppedCharacters`: control characters, unpaired surrogates) are removed or replaced first.
 */
export function parseMarkdown(markdown: string): Root {
  const text = withoutDroppedCharacters(markdown);
  const verbatim: string[] = [];
  const source = text.includes(PLACEHOLDER_OPEN) ? text : prepareSource(text, verbatim);
  const tree = PARSER.parse(source);
  if (verbatim.length > 0) restoreVerbatim(tree, verbatim);
  return tree;
}

/** The plain text of a node: formatting dropped, line breaks kept as `\n`, images as their alt text, raw HTML removed (`<br>` becomes a line break). */
export function plainText(node: Nodes): string {
  switch (node.type) {
    case 'text':
      return withoutStrayMarkers(node.value);
    case 'inlineCode':
    case 'code':
      return node.value;
    case 'break':
      return '\n';
    case 'html':
      return isLineBreakTag(node.value) ? '\n' : '';
    case 'image':
    case 'imageReference':
      return node.alt ?? '';
    case 'footnoteReference':
      return `[^${node.identifier}]`;
    default:
      return 'children' in node ? (node.children as Nodes[]).map(plainText).join('') : '';
  }
}

/**
 * Text with the `**` and `~~` the parser did not read as emphasis removed (`** bold **`, an unclosed
 * `**`): they are markup that failed, never text a reader should see in an office file. Underscores stay,
 * since a run of them is often a form's blank (`Name: ______`).
 */
export function withoutStrayMarkers(text: string): string {
  return text.includes('**') || text.includes('~~') ? text.replace(/\*{2,}|(?<!~)~~(?!~)/g, '') : text;
}

/** Inline Markdown as written inside raw HTML (a table cell `<td>**Total**</td>`) reduced to its text. */
export function inlineMarkdownText(text: string): string {
  if (!/[*_~`[]/.test(text)) return text;
  const reduced = text
    .replace(/!\[([^\]]*)\]\([^)\s]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)\s]*\)/g, '$1')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1')
    .replace(/(?<![\p{L}\p{N}*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\p{L}\p{N}*])/gu, '$1')
    .replace(/`([^`]+)`/g, '$1');
  return withoutStrayMarkers(reduced);
}

/** Inline content flattened into runs of uniform formatting; adjacent runs with the same formatting are merged. */
export function inlineRuns(nodes: PhrasingContent[]): InlineRun[] {
  const runs: InlineRun[] = [];
  for (const node of nodes) collectRuns(node, PLAIN, runs);
  return mergeAdjacentRuns(runs);
}

/** The text of a list of runs. */
export function runsText(runs: InlineRun[]): string {
  return runs.map((run) => run.text).join('');
}

function collectRuns(node: PhrasingContent, style: RunStyle, out: InlineRun[]): void {
  switch (node.type) {
    case 'text':
      out.push({ ...style, text: withoutStrayMarkers(node.value) });
      return;
    case 'inlineCode':
      out.push({ ...style, code: true, text: node.value });
      return;
    case 'break':
      out.push({ ...style, text: '\n' });
      return;
    case 'html':
      if (isLineBreakTag(node.value)) out.push({ ...style, text: '\n' });
      return;
    case 'strong':
      for (const child of node.children) collectRuns(child, { ...style, bold: true }, out);
      return;
    case 'emphasis':
      for (const child of node.children) collectRuns(child, { ...style, italic: true }, out);
      return;
    case 'delete':
      for (const child of node.children) collectRuns(child, { ...style, strike: true }, out);
      return;
    case 'link':
      for (const child of node.children) collectRuns(child, { ...style, link: node.url }, out);
      return;
    case 'linkReference':
      for (const child of node.children) collectRuns(child, style, out);
      return;
    case 'image':
      out.push({ ...style, text: node.alt ?? '', image: { src: node.url, alt: node.alt ?? '' } });
      return;
    case 'imageReference':
    case 'footnoteReference':
      out.push({ ...style, text: plainText(node) });
      return;
  }
}

/** Runs with adjacent ones of the same formatting joined and empty ones dropped (a picture is never joined). */
export function mergeAdjacentRuns(runs: InlineRun[]): InlineRun[] {
  const merged: InlineRun[] = [];
  for (const run of runs) {
    if (run.text === '' && !run.image) continue;
    const last = merged.at(-1);
    if (last && !last.image && !run.image && sameStyle(last, run)) last.text += run.text;
    else merged.push({ ...run });
  }
  return merged;
}

function sameStyle(a: RunStyle, b: RunStyle): boolean {
  return a.bold === b.bold && a.italic === b.italic && a.strike === b.strike && a.code === b.code && a.link === b.link;
}

function isLineBreakTag(html: string): boolean {
  return /^<br\s*\/?>$/i.test(html.trim());
}

// ---- source preparation -------------------------------------------------------------------

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** How far ahead the end of a `$$` block or an HTML table is looked for; past that it is taken as unclosed. */
const MAX_MATH_LINES = 100;
const MAX_TABLE_LINES = 5_000;

/**
 * Inline math: `$` followed by a non-space, closed by a `$` preceded by a non-space and not followed by a digit
 * (Pandoc's rule, so prices such as "$5 and $10" are left alone). Code spans are matched first to skip them;
 * `|` is excluded so GFM table rows keep their columns.
 */
const INLINE_MATH_OR_CODE = /(`+)[^`]*?\1|\$\$[^$\n|]+?\$\$|(?<!\\)\$(?=[^\s$])[^$\n|]*?(?<=[^\s\\])\$(?!\d)/g;

/** Sets math aside as placeholders and joins HTML tables broken by blank lines; fenced code is left untouched. */
function prepareSource(markdown: string, verbatim: string[]): string {
  const keep = (text: string): string => `${PLACEHOLDER_OPEN}${verbatim.push(text) - 1}\uE001`;
  const protectInline = (line: string): string =>
    line.replace(INLINE_MATH_OR_CODE, (match: string) => (match.startsWith('`') ? match : keep(match)));
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fence !== null) {
      out.push(line);
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening) {
      fence = opening[1];
      out.push(line);
      continue;
    }
    const mathEnd = displayMathEnd(lines, i);
    if (mathEnd !== null) {
      out.push(keep(lines.slice(i, mathEnd + 1).join('\n')));
      i = mathEnd;
      continue;
    }
    const tableEnd = htmlTableEnd(lines, i);
    if (tableEnd !== null) {
      out.push(
        ...lines
          .slice(i, tableEnd + 1)
          .filter((row) => row.trim() !== '')
          .map(protectInline),
      );
      i = tableEnd;
      continue;
    }
    out.push(protectInline(line));
  }
  return out.join('\n');
}

function closesFence(line: string, fence: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(fence) && trimmed.split('').every((char) => char === fence[0]);
}

/** When line `start` opens a multi-line `$$` block closed within reach, the index of its closing line. */
function displayMathEnd(lines: string[], start: number): number | null {
  const first = lines[start].trim();
  if (!first.startsWith('$$') || (first.length > 2 && first.endsWith('$$'))) return null;
  for (let i = start + 1; i < Math.min(lines.length, start + MAX_MATH_LINES); i++) {
    if (lines[i].trimEnd().endsWith('$$')) return i;
  }
  return null;
}

/** When line `start` opens an HTML table (as an HTML block does, at the line start) closed within reach, the index of its closing line. */
function htmlTableEnd(lines: string[], start: number): number | null {
  if (!/^\s*<table\b/i.test(lines[start])) return null;
  let depth = 0;
  for (let i = start; i < Math.min(lines.length, start + MAX_TABLE_LINES); i++) {
    depth += countMatches(lines[i], /<table\b/gi) - countMatches(lines[i], /<\/table\s*>/gi);
    if (depth <= 0) return i;
  }
  return null;
}

function countMatches(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** Puts the verbatim stretches back wherever the parser left their placeholders. */
function restoreVerbatim(node: Nodes, verbatim: string[]): void {
  const restore = (text: string): string =>
    text.replace(PLACEHOLDER, (match: string, index: string) => verbatim[Number(index)] ?? match);
  if ('value' in node && typeof node.value === 'string') node.value = restore(node.value);
  if (node.type === 'link' || node.type === 'image' || node.type === 'definition') node.url = restore(node.url);
  if ((node.type === 'image' || node.type === 'imageReference') && node.alt) node.alt = restore(node.alt);
  if ('children' in node) for (const child of node.children as Nodes[]) restoreVerbatim(child, verbatim);
}
