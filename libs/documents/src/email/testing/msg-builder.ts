import CFB from 'cfb';

/**
 * Writes small Outlook items (`.msg`, [MS-OXMSG]) for tests: a message's variable-length
 * properties as `__substg1.0_<tag>` streams, its fixed-length ones in `__properties_version1.0`,
 * recipient and attachment storages, and embedded messages, in a compound file as Outlook lays
 * it out.
 */

/** One object's properties: a message, a recipient or an attachment. */
export interface MsgObject {
  /**
   * Variable-length properties by tag (`0037001F`): a string is written UTF-16LE (the tag's type
   * should be `001F`), a buffer as it is (`001E` strings in a code page, `0102` binary).
   */
  streams?: Record<string, string | Buffer>;
  /** Fixed-length properties by tag: 32-bit integers (`0003`), FILETIMEs as a Date (`0040`). */
  fixed?: Record<number, number | Date>;
}

export interface MsgMessage extends MsgObject {
  recipients?: MsgObject[];
  attachments?: MsgAttachment[];
}

export interface MsgAttachment extends MsgObject {
  /** A message embedded in the attachment's `__substg1.0_3701000D` storage. */
  embedded?: MsgMessage;
}

/** Property tags the tests use. */
export const TAG = {
  subject: '0037001F',
  body: '1000001F',
  htmlBinary: '10130102',
  senderName: '0C1A001F',
  senderEmail: '0C1F001F',
  senderAddressType: '0C1E001F',
  senderSmtp: '5D01001F',
  messageClass: '001A001F',
  displayName: '3001001F',
  emailAddress: '3003001F',
  smtpAddress: '39FE001F',
  attachData: '37010102',
  attachLongFilename: '3707001F',
  attachMimeTag: '370E001F',
  attachContentId: '3712001F',
  rtfCompressed: '10090102',
} as const;

export const FIXED = {
  recipientType: 0x0c150003,
  clientSubmitTime: 0x00390040,
  attachMethod: 0x37050003,
  internetCodepage: 0x3fde0003,
  messageCodepage: 0x3ffd0003,
} as const;

/**
 * RTF as Outlook stores it in PidTagRtfCompressed ([MS-OXRTFCP]): the LZFu header (sizes, the
 * `LZFu` magic, a CRC this writer leaves 0) and runs of a control byte and up to eight items, here
 * all literals, which a reader decompresses like any other run.
 */
export function compressedRtf(rtf: string): Buffer {
  const raw = Buffer.from(rtf, 'latin1');
  const runs: Buffer[] = [];
  for (let start = 0; start < raw.length; start += 8)
    runs.push(Buffer.concat([Buffer.of(0), raw.subarray(start, start + 8)]));
  const body = Buffer.concat(runs);
  const header = Buffer.alloc(16);
  header.writeUInt32LE(body.length + 12, 0);
  header.writeUInt32LE(raw.length, 4);
  header.writeUInt32LE(0x75465a4c, 8);
  return Buffer.concat([header, body]);
}

/** A whole `.msg` file. */
export function msgFile(message: MsgMessage): Buffer {
  const container = CFB.utils.cfb_new();
  addMessage(container, '', message, 'root');
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

function addMessage(
  container: CFB.CFB$Container,
  folder: string,
  message: MsgMessage,
  kind: 'root' | 'embedded',
): void {
  const recipients = message.recipients ?? [];
  const attachments = message.attachments ?? [];
  // The header: 8 reserved bytes, next recipient and attachment ids, their counts, and (top level only) 8 more.
  const header = Buffer.alloc(kind === 'root' ? 32 : 24);
  header.writeUInt32LE(recipients.length, 8);
  header.writeUInt32LE(attachments.length, 12);
  header.writeUInt32LE(recipients.length, 16);
  header.writeUInt32LE(attachments.length, 20);
  addObject(container, folder, message, header);
  recipients.forEach((recipient, i) => addObject(container, `${folder}/__recip_version1.0_#${hex8(i)}`, recipient));
  attachments.forEach((attachment, i) => {
    const path = `${folder}/__attach_version1.0_#${hex8(i)}`;
    addObject(container, path, attachment);
    if (attachment.embedded) addMessage(container, `${path}/__substg1.0_3701000D`, attachment.embedded, 'embedded');
  });
}

function addObject(container: CFB.CFB$Container, folder: string, object: MsgObject, header = Buffer.alloc(8)): void {
  for (const [tag, value] of Object.entries(object.streams ?? {})) {
    const bytes = typeof value === 'string' ? Buffer.from(`${value}`, 'utf16le') : value;
    CFB.utils.cfb_add(container, `${folder}/__substg1.0_${tag}`, bytes);
  }
  const entries = Object.entries(object.fixed ?? {}).map(([tag, value]) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt32LE(Number(tag), 0);
    entry.writeUInt32LE(0x6, 4); // readable, writable
    if (value instanceof Date) entry.writeBigUInt64LE((BigInt(value.getTime()) + 11644473600000n) * 10000n, 8);
    else entry.writeUInt32LE(value, 8);
    return entry;
  });
  CFB.utils.cfb_add(container, `${folder}/__properties_version1.0`, Buffer.concat([header, ...entries]));
}

function hex8(n: number): string {
  return n.toString(16).toUpperCase().padStart(8, '0');
}
