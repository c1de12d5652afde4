import { DomainError } from '@docconv/contracts';
import { simpleParser, type AddressObject, type Attachment, type EmailAddress, type ParsedMail } from 'mailparser';
import {
  checkAttachmentSize,
  contentIdKey,
  extensionFor,
  isoUtc,
  mailboxList,
  messageFileName,
  present,
  referencedContentIds,
  safeFileName,
  unreadable,
  withUniqueNames,
  type EmailAttachment,
  type EmailMessage,
  type Mailbox,
  type ReadOptions,
} from './email-message';

/** Header fields of which a message has at least one: a file with none of them is not a message. */
const MESSAGE_HEADERS = [
  'from',
  'to',
  'cc',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'received',
  'return-path',
  'sender',
  'reply-to',
  'content-type',
];

/** How much of an attached message's start is read for its subject: its header block is well within it. */
const EMBEDDED_HEADER_BYTES = 256 * 1024;

/**
 * An Internet message (RFC 5322 with MIME, an `.eml` file) read by mailparser: header fields and
 * body parts decoded from their transfer encodings and character sets (encoded words, RFC 2231
 * file names, EUC-KR, ISO-2022-JP…). An attached message (`message/rfc822`) stays one attachment
 * holding its raw bytes, never merged into this message's body; images the HTML body shows by
 * `cid:` are part of the body and are left out of the attachments.
 */
export async function readEml(source: Buffer, displayName: string, options: ReadOptions): Promise<EmailMessage> {
  const parsed = await parse(source, displayName);
  if (!MESSAGE_HEADERS.some((name) => parsed.headers.has(name))) {
    throw unreadable(displayName, 'it has no e-mail header fields (From, To, Subject, Date…)');
  }
  const html = typeof parsed.html === 'string' && parsed.html.trim() !== '' ? parsed.html : undefined;
  const text = parsed.text !== undefined && parsed.text.trim() !== '' ? parsed.text : undefined;
  return {
    from: addresses(parsed.from),
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    date: isoUtc(parsed.date),
    subject: present(parsed.subject),
    html,
    text,
    attachments: options.attachments ? await attachments(parsed.attachments, html, displayName, options) : [],
  };
}

async function parse(source: Buffer, displayName: string): Promise<ParsedMail> {
  if (source.length === 0) throw unreadable(displayName, 'the file is empty');
  try {
    return await simpleParser(source, {
      ignoreEmbedded: true,
      keepCidLinks: true,
      skipHtmlToText: true,
      skipTextLinks: true,
      checksumAlgo: false,
    });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw unreadable(displayName, error instanceof Error ? error.message.replace(/\.$/, '') : 'it cannot be parsed');
  }
}

/** An address header as one line; groups (`Team: a@x, b@x;`) count as their members, or their name when empty. */
function addresses(header: AddressObject | AddressObject[] | undefined): string | undefined {
  if (!header) return undefined;
  const mailboxes: Mailbox[] = [];
  const add = (entry: EmailAddress) => {
    if (entry.group && entry.group.length > 0) entry.group.forEach(add);
    else mailboxes.push({ name: entry.name, address: entry.address });
  };
  for (const object of Array.isArray(header) ? header : [header]) object.value.forEach(add);
  return mailboxList(mailboxes);
}

/** The attachments to unpack, with safe unique names; each held to the size limit. */
async function attachments(
  parts: Attachment[],
  html: string | undefined,
  displayName: string,
  options: ReadOptions,
): Promise<EmailAttachment[]> {
  const inline = referencedContentIds(html);
  const found: EmailAttachment[] = [];
  for (const [index, part] of parts.entries()) {
    if (part.cid !== undefined && inline.has(contentIdKey(part.cid))) continue;
    const contentType = part.contentType.toLowerCase();
    const name =
      contentType === 'message/rfc822'
        ? await embeddedMessageName(part, index + 1)
        : (safeFileName(part.filename) ?? `attachment-${index + 1}.${extensionFor(contentType)}`);
    checkAttachmentSize(displayName, name, part.content.length, options);
    found.push({ name, contentType, content: part.content });
  }
  return withUniqueNames(found);
}

/**
 * The name of an attached message: its own file name when the sender gave one (ending in `.eml`),
 * else `<its subject>.eml`, read from its header block alone.
 */
async function embeddedMessageName(part: Attachment, number: number): Promise<string> {
  const named = safeFileName(part.filename);
  if (named) return messageFileName(named.replace(/\.eml$/i, ''), number, 'eml');
  const start = part.content.subarray(0, EMBEDDED_HEADER_BYTES);
  const end = /\r?\n\r?\n/.exec(start.toString('latin1'))?.index ?? start.length;
  try {
    const headers = await simpleParser(start.subarray(0, end), { skipHtmlToText: true, checksumAlgo: false });
    return messageFileName(present(headers.subject), number, 'eml');
  } catch {
    return messageFileName(undefined, number, 'eml');
  }
}
