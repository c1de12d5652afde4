import { decompressRTF } from '@kenjiuno/decompressrtf';
import iconv from 'iconv-lite';
import { deEncapsulateSync, Tokenize } from 'rtf-stream-parser';
import type { Token } from 'rtf-stream-parser/dist/src/tokenize';
import { ToPlainText } from 'rtf-stream-parser/dist/src/ToPlainText';

/** A message body Outlook kept only as RTF: the HTML or text it holds. */
export interface RtfBody {
  html?: string;
  text?: string;
}

/** What the RTF parser decodes 8-bit text with: iconv-lite, which knows Windows' code pages by their names (cp949, cp1252…). */
const PARSER_OPTIONS = {
  decode: (bytes: Buffer, encoding: string) => iconv.decode(bytes, encoding),
  encode: (text: string, encoding: string) => iconv.encode(text, encoding),
  warn: () => undefined,
};

/**
 * The body of an Outlook item whose only body is its compressed RTF (PidTagRtfCompressed, the
 * LZFu format of [MS-OXRTFCP]), as Outlook keeps many messages:
 * - RTF that encapsulates HTML or plain text ([MS-OXRTFEX], `\fromhtml1` or `\fromtext`), which is
 *   what Outlook makes of a message written in HTML or text: the HTML or text itself, de-encapsulated;
 * - RTF written in Outlook's own editor: its text, paragraph by paragraph, decoded from the code
 *   pages its fonts name.
 * Nothing (`{}`) when there is no RTF or it cannot be read; the caller then says the body is empty.
 */
export function rtfBody(compressed: Uint8Array | undefined): RtfBody {
  if (compressed === undefined || compressed.length < 16) return {};
  let rtf: Buffer;
  try {
    rtf = Buffer.from(decompressRTF(Array.from(compressed)));
  } catch {
    return {};
  }
  try {
    const { mode, text } = deEncapsulateSync(rtf, { ...PARSER_OPTIONS, mode: 'either' });
    return mode === 'html' ? { html: String(text) } : { text: String(text) };
  } catch {
    // Not encapsulated: RTF of its own.
  }
  try {
    const text = plainText(rtf).replace(/\r\n?/g, '\n');
    return text.trim() === '' ? {} : { text };
  } catch {
    return {};
  }
}

/** The text of RTF, as rtf-stream-parser's tokenizer and plain-text pass give it, run in one go like its `deEncapsulateSync`. */
function plainText(rtf: Buffer): string {
  const tokens = new Tokenize();
  const plain = new ToPlainText(PARSER_OPTIONS);
  const failed = (error?: Error | null): void => {
    if (error) throw error;
  };
  const pieces: string[] = [];
  tokens.push = (token: Token) => {
    plain._transform(token, '', failed);
    return true;
  };
  plain.push = (piece) => {
    pieces.push(String(piece));
    return true;
  };
  tokens._transform(rtf, 'buffer', failed);
  tokens._flush(failed);
  plain._flush(failed);
  return pieces.join('');
}
