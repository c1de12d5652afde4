/**
 * Numbering correctness: the outline and list labels a reader sees at the start of paragraphs
 * (`1.`, `2)`, `(3)`, `가.`, `나)`, `(다)`, `①`, `Ⅱ.`, `ㄱ.`, `i.`, `A.` …), taken in order from a
 * reference and from our Markdown and compared as sequences. A reader that drops a paragraph's
 * automatic number, or numbers it differently, loses the label while keeping nearly all the
 * text, so text similarity hardly sees it; this metric does.
 */
import type { List, ListItem, Nodes } from 'mdast';
import { parseCommonMark } from './markdown';
import { decodeEntities } from './metrics';
import { lcsLength, toIds } from './sequences';

/** Hangul syllables used as labels (가 나 다 … 하) and the consonants (ㄱ ㄴ ㄷ … ㅎ). */
const SYLLABLES = '가나다라마바사아자차카타파하';
const CONSONANTS = 'ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ';
/** ①–⑳, ⑴–⒇, ⒈–⒛, ⒜–⒵, ㉠–㉭ (circled consonants), ㉮–㉻ (circled syllables), ⓐ–ⓩ, Ⓐ–Ⓩ. */
const ENCLOSED = '[\\u2460-\\u249B\\u249C-\\u24B5\\u24B6-\\u24E9\\u3260-\\u327B]';
/** Ⅰ–Ⅻ and ⅰ–ⅻ. */
const ROMAN_CHARS = '[\\u2160-\\u216B\\u2170-\\u217B]';
const ROMAN = '(?:[IVXL]{1,6}|[ivxl]{1,6})';

/**
 * A label opening a line, then what must follow it:
 * - `1.`, `12)`, `1.2.`: arabic numbers (1–3 digits, dotted levels) with `.` or `)`, not followed by
 *   a digit (`1.5톤`, `3.5 m` and `2018. 9.` are not labels);
 * - `(3)`, `(다)`, `(ㄱ)`, `(iv)`, `(a)`: a number, syllable, consonant, roman numeral or letter in
 *   parentheses;
 * - `가.`, `나)`, `ㄱ.`: a label syllable or consonant with `.` or `)`, followed by a space or the
 *   end of the line (`다.` glued to text is the end of a sentence, not a label);
 * - `iv)`, `A.`, `b)`: a roman numeral or one Latin letter with `.` or `)`, followed by a
 *   space or the end;
 * - `①`, `㉮`, `Ⅲ`, `Ⅱ.`: an enclosed or roman-numeral character, with its delimiter if it has one
 *   (`①목적` is labelled too: such characters are labels wherever they open a line).
 */
const LABEL = new RegExp(
  '^(?:' +
    [
      '\\d{1,3}(?:\\.\\d{1,3})*[.)](?!\\d)',
      `\\((?:\\d{1,3}|[${SYLLABLES}${CONSONANTS}]|${ROMAN}|[A-Za-z])\\)`,
      `[${SYLLABLES}${CONSONANTS}][.)](?=\\s|$)`,
      `(?:${ROMAN}|[A-Za-z])[.)](?=\\s|$)`,
      `(?:${ENCLOSED}|${ROMAN_CHARS})[.)]?`,
    ].join('|') +
    ')',
  'u',
);

/** Full-width forms (`１．`, `（가）`) as their ASCII ones, so that they label like `1.` and `(가)`. */
function halfWidth(text: string): string {
  return text.replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
}

/** The label a line opens with, if any; leading whitespace is skipped. */
export function labelOf(line: string): string | undefined {
  const match = LABEL.exec(halfWidth(line.replace(/^[\s\u00a0\u3000]+/, '').slice(0, 24)));
  return match?.[0];
}

/** The labels opening the lines of a plain-text reference, in order. */
export function textLabels(text: string): string[] {
  return text.split(/\r\n|\n|\r/).flatMap((line) => labelOf(line) ?? []);
}

/** Nodes whose inline content a reader reads as a paragraph: paragraphs, headings, table cells. */
const INLINE_BLOCKS = new Set<Nodes['type']>(['paragraph', 'heading', 'tableCell']);

/**
 * The labels opening our Markdown's paragraphs, headings and table cells, in order, as a reader
 * sees them once rendered: the CommonMark + GFM parse removes heading marks, bullets, backslash
 * escapes (`1\.`) and emphasis; an ordered list item's paragraph is opened by the number the list
 * renders (its start plus its place) and the delimiter it is written with. A hard line break, a
 * `<br>` and a line break inside text start a new line, as a new layout line does in the reference.
 */
export function markdownLabels(markdown: string): string[] {
  const labels: string[] = [];
  const visit = (node: Nodes, prefix: string): void => {
    if (INLINE_BLOCKS.has(node.type)) {
      const lines = inlineLines(node);
      lines[0] = prefix + (lines[0] ?? '');
      for (const line of lines) {
        const label = labelOf(line);
        if (label) labels.push(label);
      }
      return;
    }
    if (node.type === 'html') {
      labels.push(...textLabels(htmlLines(node.value)));
      return;
    }
    if (node.type === 'list' && node.ordered) {
      const delimiter = listDelimiter(markdown, node);
      node.children.forEach((item, i) => visitItem(item, `${(node.start ?? 1) + i}${delimiter} `));
      return;
    }
    if ('children' in node) for (const child of node.children as Nodes[]) visit(child, '');
  };
  const visitItem = (item: ListItem, number: string): void => {
    const [first, ...rest] = item.children;
    if (first?.type === 'paragraph') visit(first, number);
    else labels.push(number.trim());
    for (const child of first?.type === 'paragraph' ? rest : item.children) visit(child, '');
  };
  visit(parseCommonMark(markdown), '');
  return labels;
}

/** The text of raw HTML (a table written as HTML), a line per cell, paragraph and `<br>`. */
function htmlLines(html: string): string {
  return decodeEntities(
    html.replace(/<(?:br|\/?(?:td|th|tr|p|div|li|h[1-6]|table|thead|tbody))\b[^>]*>/gi, '\n').replace(/<[^>]*>/g, ''),
  );
}

/** `.` or `)`, as the list's first item is written. */
function listDelimiter(markdown: string, list: List): string {
  const start = list.children[0]?.position?.start.offset;
  const match = start === undefined ? null : /^\s*\d+([.)])/.exec(markdown.slice(start, start + 16));
  return match ? match[1] : '.';
}

/** The text of an inline block split into the lines a reader sees. */
function inlineLines(node: Nodes): string[] {
  const lines = [''];
  const visit = (n: Nodes): void => {
    switch (n.type) {
      case 'text':
      case 'inlineCode': {
        const [head, ...tail] = n.value.split(/\r\n|\n|\r/);
        lines[lines.length - 1] += head;
        lines.push(...tail);
        return;
      }
      case 'break':
        lines.push('');
        return;
      case 'html':
        if (/^<br\s*\/?>$/i.test(n.value.trim())) lines.push('');
        return;
      case 'image':
      case 'imageReference':
        return;
      default:
        if ('children' in n) for (const child of n.children as Nodes[]) visit(child);
    }
  };
  visit(node);
  return lines;
}

export interface NumberingScore {
  /** Labels found in the reference and in the prediction, in order. */
  reference: string[];
  predicted: string[];
  /** Length of their longest common subsequence. */
  common: number;
  precision: number;
  recall: number;
  f1: number;
}

/**
 * Numbering F1 of predicted labels against reference labels: the longest common subsequence of
 * the two sequences, precision = LCS / predicted, recall = LCS / reference, F1 their harmonic
 * mean (0 when either is 0). Undefined when the reference has no label: there is nothing to get
 * right, and a label our output invents is not a numbering fault this metric can judge.
 */
export function numberingScore(predicted: string[], reference: string[]): NumberingScore | undefined {
  if (reference.length === 0) return undefined;
  const ids = new Map<string, number>();
  const common = lcsLength(toIds(predicted, ids), toIds(reference, ids));
  const precision = predicted.length === 0 ? 0 : common / predicted.length;
  const recall = common / reference.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { reference, predicted, common, precision, recall, f1 };
}
