import { DomainError } from '@docconv/contracts';
import { readFile } from 'node:fs/promises';
import { escapeLineStart, escapeText } from '@docconv/model';
import { readableCharacters, textPages } from '../text-pages';
import { decodeText } from './decode-text';

/**
 * Markdown from a plain-text file, in whatever encoding it is (`decodeText`). Nothing is
 * invented: no headings, lists or code blocks are guessed from the text's look. See
 * `textMarkdown` for how the text is written.
 */
export async function extractText(path: string, displayName: string): Promise<string> {
  return textMarkdown(await readText(path, displayName));
}

/** Pages of a plain-text file for pricing: one per 3,000 readable characters, at least one. */
export async function countTextPages(path: string, displayName: string): Promise<number> {
  return textPages(readableCharacters(await readText(path, displayName)));
}

/** The decoded text of a file; `unsupported_format` when its bytes are not text. */
async function readText(path: string, displayName: string): Promise<string> {
  const decoded = decodeText(await readFile(path));
  if (!decoded) {
    throw new DomainError(
      'unsupported_format',
      `${displayName} is not readable text: it holds binary data, or text in an encoding that could not be recognised. Save it as UTF-8 text and upload it again.`,
    );
  }
  return decoded.text;
}

/**
 * Plain text as Markdown that renders as the same text, line for line:
 *
 * - blank lines (or lines of spaces) separate paragraphs; several count as one, as in Markdown;
 * - every other line is kept, and a line break inside a paragraph is a hard break (two spaces at
 *   the line's end, as the other extractors write it), so addresses, verse and lists typed as
 *   text keep their lines;
 * - text Markdown would read as syntax is escaped (`escapeText`, then `escapeLineStart` for a
 *   line that would start a heading, list, quote, table, fence or HTML block), so `# x`, `- x`,
 *   `1. x`, `> x`, `| a | b |`, `<div>` and `*x*` show as typed;
 * - leading and trailing spaces and tabs are dropped: four spaces would make indented code,
 *   which no escape undoes, and Markdown shows neither. Runs of spaces inside a line are kept as
 *   typed (a renderer shows them as one), and so is an ideographic-space indent (U+3000), which
 *   Markdown shows.
 *
 * `text` has LF line ends and no control characters (`decodeText`'s text).
 */
export function textMarkdown(text: string): string {
  return paragraphs(text)
    .map((lines) => escapeText(lines.join('\n')).split('\n').map(escapeLineStart).join('  \n'))
    .join('\n\n');
}

/** The paragraphs of a text (split at lines that are empty or all whitespace), each as its trimmed lines. */
function paragraphs(text: string): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  for (const line of text.split('\n')) {
    if (!/^\s*$/.test(line)) {
      current.push(line.replace(/^[ \t]+|[ \t]+$/g, ''));
      continue;
    }
    if (current.length > 0) out.push(current);
    current = [];
  }
  if (current.length > 0) out.push(current);
  return out;
}
