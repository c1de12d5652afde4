import { withoutDroppedCharacters } from '@docconv/characters';
import { htmlMarkdown, htmlReadableCharacters } from '../html/html-markdown';
import { escapeText } from '@docconv/model';
import { tableMarkdown, type GridCell as TableCell } from '@docconv/model';
import { readableCharacters } from '../text-pages';
import { cleanText } from '../text/decode-text';
import { textMarkdown } from '../text/extract-text';
import { oneLine, type EmailMessage } from './email-message';

/** The header fields shown, in the order mail programs show them below the subject. */
const FIELDS = [
  ['From', 'from'],
  ['To', 'to'],
  ['Cc', 'cc'],
  ['Date', 'date'],
] as const;

/**
 * A message as Markdown: its header fields as a small table, then its body (the HTML body
 * converted, else the text body as literal text). Attachments are not written here: intake
 * unpacks each into a file of its own, converted under its own heading.
 *
 * The table has one column and a row per field, each row reading `Name: value`
 * (`From: Alice Example \<alice@example.com\>`): the subject, when there is one, is its header
 * row, shown bold like a message's title, and From, To, Cc and Date follow. Every cell names its
 * field, so the table reads the same rendered, as plain text or cell by cell, and a field
 * missing from a message leaves no empty row.
 */
export function emailMarkdown(message: EmailMessage): string {
  const parts = [headerTable(message), bodyMarkdown(message)].filter((part) => part !== '');
  return parts.length === 0 ? '' : `${withoutDroppedCharacters(parts.join('\n\n'))}\n`;
}

/** Readable characters of the body, which prices a message: the HTML body's text, else the text body's. */
export function bodyReadableCharacters(message: EmailMessage): number {
  if (message.html !== undefined) return htmlReadableCharacters(message.html);
  return readableCharacters(withoutDroppedCharacters(message.text ?? ''));
}

function headerTable(message: EmailMessage): string {
  const rows: string[] = [];
  if (message.subject !== undefined) rows.push(field('Subject', message.subject));
  for (const [label, key] of FIELDS) {
    const value = message[key];
    if (value !== undefined) rows.push(field(label, value));
  }
  return tableMarkdown(rows.map((text): TableCell[] => [{ text, rowspan: 1, colspan: 1 }]));
}

/** One row's Markdown: `Name: value`, the value on one line and literal. */
function field(label: string, value: string): string {
  return `${label}: ${escapeAngleBrackets(escapeText(oneLine(value)))}`;
}

/**
 * Escapes every `<` and `>` that `escapeText` left bare. `escapeText` escapes `<` only where it
 * would open a tag or an autolink; an address between angle brackets reads better with both
 * escaped (`\<alice@example.com\>`), as CommonMark allows before any punctuation. A bracket after
 * an odd run of backslashes is escaped already; after an even run the backslashes are literal.
 */
function escapeAngleBrackets(markdown: string): string {
  return markdown.replace(/(\\*)([<>])/g, (_, slashes: string, bracket: string) =>
    slashes.length % 2 === 1 ? `${slashes}${bracket}` : `${slashes}\\${bracket}`,
  );
}

function bodyMarkdown(message: EmailMessage): string {
  if (message.html !== undefined) return htmlMarkdown(message.html).trim();
  if (message.text !== undefined) return textMarkdown(cleanText(message.text));
  return '';
}
