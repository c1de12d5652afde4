import { DomainError } from '@docconv/contracts';
import MsgReader, { type FieldsData } from '@kenjiuno/msgreader';
import { compoundFileProblem, isCompoundFile } from './compound-file';
import { rtfBody } from './rtf-body';
import { declaredHtmlCharset, decodeBytes, encodingForCharset, encodingForCodepage } from './codepages';
import {
  checkAttachmentSize,
  contentIdKey,
  contentTypeFor,
  extensionFor,
  isoUtc,
  mailboxList,
  mailboxText,
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

/** PidTagAttachMethod, a fixed-length property of an attachment ([MS-OXCMSG] 2.2.2.9). */
const ATTACH_METHOD_TAG = 0x37050003;
/** Attachment methods whose data we unpack: a file by value, an embedded message (6, an OLE object's storage, is not one). */
const ATTACH_BY_VALUE = 1;
const ATTACH_EMBEDDED_MESSAGE = 5;
/** PT_STRING8: a string in the message's code page rather than UTF-16. */
const PT_STRING8 = 0x001e;
/** What 8-bit strings are read as when the message names no code page: Outlook's Western default. */
const DEFAULT_ANSI = 'windows1252';

/** A parsed Outlook item, with what msgreader does not keep for us: each attachment's method. */
interface ParsedMsg {
  reader: MsgReader;
  fields: FieldsData;
  methods: Map<FieldsData, number>;
  hasString8: boolean;
}

/**
 * An Outlook item (`.msg`, [MS-OXMSG]) read by msgreader: sender, recipients, submit time,
 * subject, the HTML body (decoded from the message's Internet code page) and the text body; when
 * it has no HTML body, the HTML its compressed RTF body encapsulates, and when it has no body at
 * all but the RTF one, that one's text (`rtfBody`).
 * 8-bit string properties, which older Outlook versions and ANSI stores write, are decoded from
 * the message's code page (949 Korean, 932 Japanese, …), not as Latin-1. An attached file is
 * unpacked as it is; an embedded message becomes a standalone `.msg` that msgreader rebuilds from
 * its storage; OLE objects and attachments by reference hold no file and are left out, as are
 * images the HTML body shows by `cid:`.
 */
export function readMsg(source: Buffer, displayName: string, options: ReadOptions): EmailMessage {
  try {
    return message(parseWithCodepage(source, displayName), displayName, options);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw unreadable(displayName, 'its Outlook structure is damaged');
  }
}

function message(parsed: ParsedMsg, displayName: string, options: ReadOptions): EmailMessage {
  const { fields } = parsed;
  const stored = htmlBody(fields);
  // Without an HTML body the RTF one may hold the HTML the message was written in, or be the only body.
  const rtf = stored === undefined ? rtfBody(bytes(fields.compressedRtf)) : {};
  const html = stored ?? rtf.html;
  const plain = text(fields.body);
  const body = present(plain) !== undefined ? plain : rtf.text;
  return {
    from: mailboxText(sender(fields)),
    to: recipients(fields, 'to'),
    cc: recipients(fields, 'cc'),
    date: isoUtc(sentAt(fields)),
    subject: present(text(fields.subject)),
    html,
    text: present(body) === undefined ? undefined : body,
    attachments: options.attachments ? attachments(parsed, html, displayName, options) : [],
  };
}

/** Parses the item, and again with its code page when it has 8-bit strings in one other than the default. */
function parseWithCodepage(source: Buffer, displayName: string): ParsedMsg {
  if (source.length === 0) throw unreadable(displayName, 'the file is empty');
  if (!isCompoundFile(source)) throw unreadable(displayName, 'it is not an Outlook item (.msg)');
  const problem = compoundFileProblem(source);
  if (problem !== undefined) throw unreadable(displayName, problem);
  const first = parse(source, displayName, DEFAULT_ANSI);
  if (!first.hasString8) return first;
  const encoding = encodingForCodepage(number(first.fields.messageCodepage) ?? number(first.fields.internetCodepage));
  if (encoding === undefined || encoding === DEFAULT_ANSI || encoding === 'iso2022jp') return first;
  return parse(source, displayName, encoding);
}

function parse(source: Buffer, displayName: string, ansiEncoding: string): ParsedMsg {
  const methods = new Map<FieldsData, number>();
  let hasString8 = false;
  const buffer = source.buffer.slice(source.byteOffset, source.byteOffset + source.byteLength) as ArrayBuffer;
  const reader = new MsgReader(buffer);
  reader.parserConfig = {
    ansiEncoding,
    propertyObserver: (fields, tag, raw) => {
      if ((tag & 0xffff) === PT_STRING8) hasString8 = true;
      if (tag === ATTACH_METHOD_TAG && raw && raw.length >= 4) {
        methods.set(fields, Buffer.from(raw.buffer, raw.byteOffset, 4).readUInt32LE(0));
      }
    },
  };
  const fields = reader.getFileData();
  if (fields.dataType !== 'msg') throw unreadable(displayName, 'it is not an Outlook item (.msg)');
  if (!looksLikeMessage(fields)) throw unreadable(displayName, 'the compound file holds no Outlook message');
  return { reader, fields, methods, hasString8 };
}

/** Whether an item (or an embedded storage) holds a message: a message class, or something a message has. */
function looksLikeMessage(fields: FieldsData): boolean {
  return (
    fields.messageClass !== undefined ||
    fields.subject !== undefined ||
    fields.body !== undefined ||
    fields.bodyHtml !== undefined ||
    fields.html !== undefined ||
    (fields.recipients?.length ?? 0) > 0
  );
}

/**
 * The HTML body: the Unicode property when there is one, else the binary one decoded from the
 * Internet code page Outlook stored it in, else from the charset the HTML declares, else UTF-8.
 */
function htmlBody(fields: FieldsData): string | undefined {
  const unicode = text(fields.bodyHtml);
  if (present(unicode) !== undefined) return unicode;
  const stored = bytes(fields.html);
  if (stored === undefined) return undefined;
  const encoding =
    encodingForCodepage(number(fields.internetCodepage)) ?? encodingForCharset(declaredHtmlCharset(stored)) ?? 'utf8';
  const html = decodeBytes(stored, encoding).replace(/\0+$/, '');
  return html.trim() === '' ? undefined : html;
}

/**
 * The sender: the SMTP address when Outlook kept one (an Exchange sender's own address is an
 * X.500 path, which is not shown), with the display name.
 */
function sender(fields: FieldsData): Mailbox {
  return {
    name: text(fields.senderName),
    address: smtpAddress(text(fields.senderSmtpAddress), text(fields.senderEmail), text(fields.senderAddressType)),
  };
}

/** The recipients of one kind joined by `, `; a recipient of no stated kind counts as To. */
function recipients(fields: FieldsData, kind: 'to' | 'cc'): string | undefined {
  const chosen = (fields.recipients ?? []).filter((recipient) => (recipient.recipType ?? 'to') === kind);
  return mailboxList(
    chosen.map((recipient) => ({
      name: text(recipient.name),
      address: smtpAddress(text(recipient.smtpAddress), text(recipient.email), text(recipient.addressType)),
    })),
  );
}

/** An Internet address: the SMTP one when given, else the address if it is one (not an Exchange `/O=…` path). */
function smtpAddress(
  smtp: string | undefined,
  address: string | undefined,
  type: string | undefined,
): string | undefined {
  if (present(smtp) !== undefined) return smtp;
  if (address === undefined || (type !== undefined && type.toUpperCase() === 'EX')) return undefined;
  return address.includes('@') ? address : undefined;
}

/** When the message was sent, else when it arrived. */
function sentAt(fields: FieldsData): Date | undefined {
  const time = text(fields.clientSubmitTime) ?? text(fields.messageDeliveryTime);
  return time === undefined ? undefined : new Date(time);
}

/** The attachments that hold a file, with safe unique names; each held to the size limit. */
function attachments(
  parsed: ParsedMsg,
  html: string | undefined,
  displayName: string,
  options: ReadOptions,
): EmailAttachment[] {
  const inline = referencedContentIds(html);
  const found: EmailAttachment[] = [];
  for (const [index, attachment] of (parsed.fields.attachments ?? []).entries()) {
    const contentId = text(attachment.pidContentId);
    if (contentId !== undefined && inline.has(contentIdKey(contentId))) continue;
    const method = parsed.methods.get(attachment);
    if (attachment.innerMsgContent === true) {
      const inner = attachment.innerMsgContentFields;
      // msgreader reads an OLE object's storage as an embedded message too: the method, or its content, tells them apart.
      const embedded =
        method === undefined ? inner !== undefined && looksLikeMessage(inner) : method === ATTACH_EMBEDDED_MESSAGE;
      if (!embedded) continue;
      const name = messageFileName(present(text(inner?.subject)) ?? present(text(attachment.name)), index + 1, 'msg');
      const content = read(parsed.reader, attachment, displayName, name);
      checkAttachmentSize(displayName, name, content.length, options);
      found.push({ name, contentType: 'application/vnd.ms-outlook', content });
    } else if (attachment.dataId !== undefined && (method === undefined || method === ATTACH_BY_VALUE)) {
      const contentType = present(text(attachment.attachMimeTag))?.toLowerCase();
      const name =
        safeFileName(text(attachment.fileName) ?? text(attachment.fileNameShort) ?? text(attachment.name)) ??
        `attachment-${index + 1}.${contentType ? extensionFor(contentType) : 'bin'}`;
      checkAttachmentSize(displayName, name, number(attachment.contentLength) ?? 0, options);
      const content = read(parsed.reader, attachment, displayName, name);
      found.push({ name, contentType: contentType ?? contentTypeFor(name), content });
    }
    // Any other attachment is by reference (a link to a file elsewhere) or OLE: no file to unpack.
  }
  return withUniqueNames(found);
}

/**
 * A string property, or `undefined`: in a damaged file a property's type bits may be wrong, and
 * msgreader then hands over bytes or a number where a string belongs.
 */
function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A binary property, or `undefined` (see `text`). */
function bytes(value: unknown): Uint8Array | undefined {
  return value instanceof Uint8Array && value.length > 0 ? value : undefined;
}

/** A number property, or `undefined` (see `text`). */
function number(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** One attachment's bytes: the file, or the embedded message rebuilt as a standalone `.msg`. */
function read(reader: MsgReader, attachment: FieldsData, displayName: string, name: string): Buffer {
  try {
    const { content } = reader.getAttachment(attachment);
    return Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  } catch {
    throw unreadable(displayName, `its attachment ${name} is damaged`);
  }
}
