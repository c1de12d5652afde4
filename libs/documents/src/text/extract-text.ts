import { DomainError } from '@docconv/contracts';
import { readFile } from 'node:fs/promises';
import { plain, type Document, type Inline, type ParagraphBlock } from '@docconv/model';
import { readableCharacters, textPages } from '../text-pages';
import { decodeText } from './decode-text';

/**
 * The document of a plain-text file, in whatever encoding it is (`decodeText`). Nothing is
 * invented: no headings, lists or code blocks are guessed from the text's look. See
 * `textBlocks` for how the text is cut.
 */
export async function extractText(path: string, displayName: string): Promise<Document> {
  return { version: 1, blocks: textBlocks(await readText(path, displayName), displayName) };
}

/** Pages of a plain-text file for pricing: its readable characters in text pages (TEXT_PAGE_CHARACTERS). */
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
 * Plain text as paragraphs that show the same text, line for line:
 *
 * - blank lines (or lines of spaces) separate paragraphs; several count as one, as in Markdown;
 * - every other line is kept, a line break inside a paragraph is a break (the Markdown writer
 *   makes it a hard break), so addresses, verse and lists typed as text keep their lines;
 * - the text is plain: the writer escapes what Markdown would read as syntax (`# x`, `- x`,
 *   `| a | b |`, `*x*` show as typed);
 * - leading and trailing spaces and tabs are dropped: Markdown shows neither, and four spaces
 *   would make indented code. An ideographic-space indent (U+3000), which Markdown shows, is kept;
 *   runs of spaces inside a line are kept here, and the writer writes each as one space.
 *
 * `text` has LF line ends and no control characters (`decodeText`'s text); `file` is the
 * blocks' provenance.
 */
export function textBlocks(text: string, file: string): ParagraphBlock[] {
  return paragraphs(text).map((lines) => ({
    type: 'paragraph',
    content: lineContent(lines.join('\n')),
    from: { file },
  }));
}

/** Plain text of several lines as inline content: each line's text, a break between two. */
export function lineContent(text: string): Inline[] {
  return text.split('\n').flatMap((line, i): Inline[] => (i === 0 ? plain(line) : [{ kind: 'break' }, ...plain(line)]));
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
