import { readFile } from 'node:fs/promises';
import { textPages } from '../text-pages';
import type { Document } from '@docconv/model';
import { bodyReadableCharacters, emailDocument } from './email-document';
import type { EmailLimits, EmailMessage, ReadOptions } from './email-message';
import { readEml } from './read-eml';
import { readMsg } from './read-msg';

export { emailDocument } from './email-document';
export type { EmailAttachment, EmailLimits, EmailMessage } from './email-message';

/** The e-mail kinds detection tells apart: an Internet message file, or an Outlook item. */
export type EmailKind = 'eml' | 'msg';

/**
 * An e-mail file read for conversion: its header fields, its bodies and its attachments' bytes
 * (for intake to unpack beside it). A file that is not a readable message is refused with
 * `unsupported_format`; an attachment larger than `limits.maxAttachmentBytes` with
 * `payload_too_large`.
 */
export async function readEmail(
  path: string,
  kind: EmailKind,
  displayName: string,
  limits: EmailLimits = {},
): Promise<EmailMessage> {
  return read(path, kind, displayName, { ...limits, attachments: true });
}

/** The document of an e-mail file: the message's header fields and body, without its attachments. */
export async function extractEmail(path: string, kind: EmailKind, displayName: string): Promise<Document> {
  return emailDocument(await read(path, kind, displayName, { attachments: false }), displayName);
}

/** Pages an e-mail is priced as: its body's readable characters in text pages (TEXT_PAGE_CHARACTERS). */
export async function countEmailPages(path: string, kind: EmailKind, displayName: string): Promise<number> {
  return textPages(bodyReadableCharacters(await read(path, kind, displayName, { attachments: false })));
}

async function read(path: string, kind: EmailKind, displayName: string, options: ReadOptions): Promise<EmailMessage> {
  const source = await readFile(path);
  return kind === 'eml' ? readEml(source, displayName, options) : readMsg(source, displayName, options);
}
