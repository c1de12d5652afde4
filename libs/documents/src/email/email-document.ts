import { withoutDroppedCharacters } from '@docconv/characters';
import { htmlDocument, htmlReadableCharacters } from '../html/html-markdown';
import { plain, type Cell, type Document, type TableBlock } from '@docconv/model';
import { readableCharacters } from '../text-pages';
import { cleanText } from '../text/decode-text';
import { textBlocks } from '../text/extract-text';
import { oneLine, type EmailMessage } from './email-message';

/** The header fields shown, in the order mail programs show them below the subject. */
const FIELDS = [
  ['From', 'from'],
  ['To', 'to'],
  ['Cc', 'cc'],
  ['Date', 'date'],
] as const;

/**
 * A message as a document: its header fields as a small table, then its body (the HTML body
 * converted, else the text body as plain text). Attachments are not in it: intake unpacks each
 * into a file of its own, converted under its own heading.
 *
 * The table has one column and a row per field, each row reading `Name: value`
 * (`From: Alice Example <alice@example.com>`): the subject, when there is one, is its header
 * row, shown bold like a message's title, and From, To, Cc and Date follow. Every cell names its
 * field, so the table reads the same rendered, as plain text or cell by cell, and a field
 * missing from a message leaves no empty row. `file` is the blocks' provenance.
 */
export function emailDocument(message: EmailMessage, file: string): Document {
  const header = headerTable(message, file);
  const body = bodyDocument(message, file);
  return header === undefined ? body : { ...body, blocks: [header, ...body.blocks] };
}

/** Readable characters of the body, which prices a message: the HTML body's text, else the text body's. */
export function bodyReadableCharacters(message: EmailMessage): number {
  if (message.html !== undefined) return htmlReadableCharacters(message.html);
  return readableCharacters(withoutDroppedCharacters(message.text ?? ''));
}

function headerTable(message: EmailMessage, file: string): TableBlock | undefined {
  const rows: string[] = [];
  if (message.subject !== undefined) rows.push(field('Subject', message.subject));
  for (const [label, key] of FIELDS) {
    const value = message[key];
    if (value !== undefined) rows.push(field(label, value));
  }
  if (rows.length === 0) return undefined;
  const cells = rows.map((text): Cell[] => [{ content: plain(text), rowspan: 1, colspan: 1 }]);
  return { type: 'table', rows: cells, headerRows: 1, from: { file } };
}

/** One row's text: `Name: value`, the value on one line. */
function field(label: string, value: string): string {
  return `${label}: ${oneLine(value)}`;
}

/** The body: the HTML body's document, else the text body's paragraphs. */
function bodyDocument(message: EmailMessage, file: string): Document {
  if (message.html !== undefined) return htmlDocument(message.html, file);
  if (message.text !== undefined) return { version: 1, blocks: textBlocks(cleanText(message.text), file) };
  return { version: 1, blocks: [] };
}
