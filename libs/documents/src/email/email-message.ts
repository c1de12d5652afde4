import { withoutDroppedCharacters } from '@docconv/characters';
import { DomainError } from '@docconv/contracts';

/**
 * One file attached to a message, for intake to unpack beside it like a member of a zip archive
 * (it is converted under its own heading; the message's own Markdown never holds it).
 */
export interface EmailAttachment {
  /**
   * A display name that is safe to show and to join to a path: the attachment's own file name
   * without folders, `<subject>.eml` / `<subject>.msg` for an attached message, or
   * `attachment-N.<extension>` when it has no name (N counts the message's attachments from 1).
   */
  name: string;
  contentType: string;
  content: Buffer;
}

/** A message as the Markdown writer needs it: the header fields people read, one body, the attachments. */
export interface EmailMessage {
  /** Addresses read `Alice Example <alice@example.com>`, several joined by `, `. */
  from?: string;
  to?: string;
  cc?: string;
  /** When the message was sent, ISO 8601 in UTC to the second: `2024-01-02T03:04:05Z`. */
  date?: string;
  subject?: string;
  /** The HTML body, preferred to the text body when both exist. */
  html?: string;
  text?: string;
  attachments: EmailAttachment[];
}

/** How much of a message's attachments intake takes. */
export interface EmailLimits {
  /** The largest one attachment may be; a larger one refuses the message with a 413. */
  maxAttachmentBytes?: number;
}

/** What one reader (EML or MSG) is asked to do. */
export interface ReadOptions extends EmailLimits {
  /** Whether to read the attachments' bytes: intake needs them, the Markdown and the page count do not. */
  attachments: boolean;
}

/** A mailbox as a message stores it: a display name, an address, or both. */
export interface Mailbox {
  name?: string;
  address?: string;
}

/** The longest attachment name we make, in characters: room for any real file name. */
const MAX_NAME_LENGTH = 150;

/** The refusal for a file that is not a message we can read; `detail` says what is wrong with it. */
export function unreadable(displayName: string, detail: string): DomainError {
  return new DomainError(
    'unsupported_format',
    `${displayName} is not a readable e-mail message: ${detail}. Check that the file is complete, or save the message again from its mail program and upload that.`,
  );
}

/** Refuses an attachment larger than the limit, before its bytes are handed on. */
export function checkAttachmentSize(displayName: string, name: string, bytes: number, limits: EmailLimits): void {
  const max = limits.maxAttachmentBytes;
  if (max === undefined || bytes <= max) return;
  throw new DomainError(
    'payload_too_large',
    `${displayName}: its attachment ${name} is larger than ${megabytes(max)}, more than one file may be. Send the attachment on its own, split into smaller files.`,
  );
}

function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${bytes} bytes`;
}

/** A header value on one line: the dropped characters and line breaks become spaces, runs of spaces one. */
export function oneLine(value: string): string {
  return withoutDroppedCharacters(value, ' ').replace(/\s+/g, ' ').trim();
}

/** A header value worth showing, or `undefined` for an empty one. */
export function present(value: string | undefined | null): string | undefined {
  const clean = value == null ? '' : oneLine(value);
  return clean === '' ? undefined : clean;
}

/**
 * A mailbox as people read it: `Alice Example <alice@example.com>`; the address alone when there
 * is no name or the name repeats it, the name alone when there is no address. A name holding a
 * comma, semicolon or quote is quoted, so that mailboxes joined by `, ` stay apart.
 */
export function mailboxText(mailbox: Mailbox): string | undefined {
  const name = present(mailbox.name)?.replace(/^(['"])(.*)\1$/, '$2');
  const address = present(mailbox.address)?.replace(/^<(.*)>$/, '$1');
  if (!name) return address;
  const shown = /[,;"]/.test(name) ? `"${name.replace(/["\\]/g, '\\$&')}"` : name;
  if (!address || address.toLowerCase() === name.toLowerCase()) return shown;
  return `${shown} <${address}>`;
}

/** Mailboxes joined by `, `, or `undefined` when none is left. */
export function mailboxList(mailboxes: Mailbox[]): string | undefined {
  const shown = mailboxes.map(mailboxText).filter((text): text is string => text !== undefined);
  return shown.length > 0 ? shown.join(', ') : undefined;
}

/** A time as ISO 8601 in UTC to the second (`2024-01-02T03:04:05Z`), or `undefined` for an invalid one. */
export function isoUtc(date: Date | undefined): string | undefined {
  if (!date || Number.isNaN(date.getTime())) return undefined;
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The content ids the HTML body shows as pictures (`<img src="cid:logo@x">`), lower-cased and
 * without angle brackets. An attachment with one of them is part of the body's layout (a logo,
 * a signature, a pasted screenshot), not a file the sender attached.
 */
export function referencedContentIds(html: string | undefined): Set<string> {
  const ids = new Set<string>();
  if (!html) return ids;
  for (const match of html.matchAll(/cid:([^"'\s)>]+)/gi)) {
    let id = match[1];
    try {
      id = decodeURIComponent(id);
    } catch {
      // Not percent-encoded after all: keep it as written.
    }
    ids.add(contentIdKey(id));
  }
  return ids;
}

/** A content id compared as `referencedContentIds` keeps them. */
export function contentIdKey(id: string): string {
  return id
    .trim()
    .replace(/^<(.*)>$/, '$1')
    .toLowerCase();
}

/** File extensions for the content types attachments most often have, for unnamed ones. */
const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'application/msword': 'doc',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/x-hwp': 'hwp',
  'application/haansofthwp': 'hwp',
  'application/vnd.hancom.hwp': 'hwp',
  'application/hwp+zip': 'hwpx',
  'application/vnd.hancom.hwpx': 'hwpx',
  'application/epub+zip': 'epub',
  'application/rtf': 'rtf',
  'text/rtf': 'rtf',
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
  'application/x-tar': 'tar',
  'application/gzip': 'gz',
  'application/vnd.ms-outlook': 'msg',
  'message/rfc822': 'eml',
  'text/plain': 'txt',
  'text/html': 'html',
  'text/csv': 'csv',
  'text/tab-separated-values': 'tsv',
  'text/markdown': 'md',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/tiff': 'tif',
  'image/bmp': 'bmp',
  'image/webp': 'webp',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/mp4': 'm4a',
  'video/mp4': 'mp4',
};

/** The usual extension for a content type (`bin` when we know none). */
export function extensionFor(contentType: string): string {
  return EXTENSIONS[contentType.toLowerCase().split(';')[0].trim()] ?? 'bin';
}

/** The content type for a file name's extension (`application/octet-stream` when we know none). */
export function contentTypeFor(name: string): string {
  const extension = /\.([^.]+)$/.exec(name)?.[1].toLowerCase();
  if (extension === 'jpeg') return 'image/jpeg';
  if (extension === 'tiff') return 'image/tiff';
  const found = Object.entries(EXTENSIONS).find(([, known]) => known === extension);
  return found?.[0] ?? 'application/octet-stream';
}

/**
 * A file name an attachment may be shown and stored under: its last path part (a name may carry
 * the sender's folders, with either slash), without control characters, at most
 * `MAX_NAME_LENGTH` characters with its extension kept. `undefined` when nothing usable is left.
 */
export function safeFileName(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const base = withoutDroppedCharacters(raw.split(/[/\\]/).pop() ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  if (base === '' || /^\.+$/.test(base)) return undefined;
  if (base.length <= MAX_NAME_LENGTH) return base;
  const extension = /\.[^.\s]{1,10}$/.exec(base)?.[0] ?? '';
  return base.slice(0, MAX_NAME_LENGTH - extension.length).trimEnd() + extension;
}

/** The name of an attached message: `<its subject>.<extension>`, or `attachment-N.<extension>` without one. */
export function messageFileName(subject: string | undefined, number: number, extension: 'eml' | 'msg'): string {
  const stem = safeFileName(subject?.replace(/[/\\]/g, '_'));
  if (!stem) return `attachment-${number}.${extension}`;
  return stem.toLowerCase().endsWith(`.${extension}`) ? stem : safeFileName(`${stem}.${extension}`)!;
}

/**
 * The attachments with names made unique (case aside): a second `report.pdf` becomes
 * `report (2).pdf`, so every unpacked file keeps its own heading.
 */
export function withUniqueNames(attachments: EmailAttachment[]): EmailAttachment[] {
  const taken = new Set<string>();
  return attachments.map((attachment) => {
    let name = attachment.name;
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem} (${n})${extension}`;
    taken.add(name.toLowerCase());
    return name === attachment.name ? attachment : { ...attachment, name };
  });
}
