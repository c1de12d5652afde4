import { withoutDroppedCharacters } from '@docconv/characters';
import iconv from 'iconv-lite';
import { MAX_INVALID_SHARE, rankLegacyEncodings } from './legacy-encodings';
import { decodeUtf8, mostlyUtf8, utf8Evidence } from './utf8';

/** Text read from bytes, and the encoding it was read in (an iconv-lite name: `utf-8`, `cp949`…). */
export interface DecodedText {
  text: string;
  encoding: string;
}

/** How an encoding was found: its name and how many bytes of byte order mark to skip. */
export interface TextEncoding {
  encoding: string;
  bomLength: number;
}

/** How much of a file format detection looks at, and encoding detection judges. */
export const TEXT_SAMPLE_BYTES = 64 * 1024;

/** How much of it the legacy encodings are judged on: thousands of characters, decoded a dozen times. */
const LEGACY_SAMPLE_BYTES = 16 * 1024;

/**
 * The text `bytes` hold, or `undefined` when they are not text (NUL bytes outside UTF-16 or
 * UTF-32, many control characters, or no encoding that reads as text).
 *
 * The encoding is decided in this order: a byte order mark (UTF-8, UTF-16 and UTF-32 in either
 * byte order); UTF-16 without a mark when its zero bytes clearly say so; UTF-8 (ASCII included,
 * and UTF-8 with a few stray bytes of another encoding, see `decodeUtf8`); otherwise the legacy
 * encoding whose decoding reads best (`rankLegacyEncodings`: Korean CP949, Japanese Shift-JIS and
 * EUC-JP, Chinese GB18030 and Big5, windows-1252, -1250 and -1251, ISO-8859-2, and the code pages
 * chardet proposes). A file whose first 64 KiB are ASCII is judged from its first non-ASCII byte.
 *
 * The text comes without the byte order mark, with CRLF and CR line ends as LF, form feeds,
 * vertical tabs and Unicode line and paragraph separators as LF, and without the other control
 * characters (C0 but tab and LF, DEL, C1), which no reader sees.
 */
export function decodeText(bytes: Buffer): DecodedText | undefined {
  const found = detectTextEncoding(bytes);
  if (!found) return undefined;
  const text = decodeWith(bytes.subarray(found.bomLength), found.encoding);
  return { text: cleanText(text), encoding: found.encoding };
}

/**
 * Whether the start of a file (its first 64 KiB are looked at) is text: the quick check format
 * detection makes. Accepts what `decodeText` accepts, a UTF-8 character cut at the end included.
 */
export function sniffTextSample(bytes: Buffer): boolean {
  return detectTextEncoding(bytes.subarray(0, TEXT_SAMPLE_BYTES)) !== undefined;
}

/**
 * The encoding of the text `bytes` hold, judged on their first 64 KiB, or `undefined` when they
 * are not text. What `decodeText` decides; streaming readers decode the rest of a file with it.
 */
export function detectTextEncoding(bytes: Buffer): TextEncoding | undefined {
  const sample = bytes.subarray(0, TEXT_SAMPLE_BYTES);
  const later = firstNonAscii(bytes, sample);
  if (later !== undefined) {
    const found = detectTextEncoding(bytes.subarray(later));
    return found && { encoding: found.encoding, bomLength: 0 };
  }
  // A sample as long as the limit may be the start of a longer file, cut anywhere.
  const truncated = sample.length === TEXT_SAMPLE_BYTES;
  const bom = byteOrderMark(sample);
  if (bom) {
    const text = decodeWith(wholeUnits(sample.subarray(bom.bomLength), bom.encoding), bom.encoding);
    return looksLikeText(text) ? bom : undefined;
  }
  if (sample.includes(0)) {
    const encoding = utf16WithoutMark(sample);
    if (!encoding) return undefined;
    return looksLikeText(decodeWith(wholeUnits(sample, encoding), encoding)) ? { encoding, bomLength: 0 } : undefined;
  }
  if (tooManyControls(sample)) return undefined;
  if (isUtf8(sample, truncated) || mostlyUtf8(utf8Evidence(sample, truncated)))
    return { encoding: 'utf-8', bomLength: 0 };
  const legacy = sample.subarray(0, LEGACY_SAMPLE_BYTES);
  const best = rankLegacyEncodings(completeLines(legacy, legacy.length < bytes.length))[0];
  return best && best.invalid <= MAX_INVALID_SHARE ? { encoding: best.encoding, bomLength: 0 } : undefined;
}

/**
 * `bytes` as text in `encoding`. Invalid sequences become U+FFFD, but for UTF-8, whose stray
 * bytes are read as windows-1252 (`decodeUtf8`).
 */
export function decodeWith(bytes: Buffer, encoding: string): string {
  if (encoding === 'utf-8') return isUtf8(bytes, false) ? bytes.toString('utf8') : decodeUtf8(bytes);
  return iconv.decode(bytes, encoding, { stripBOM: false });
}

/**
 * Where the first non-ASCII (or NUL) byte is, when that is after the sample: a table whose first
 * thousand rows are ASCII says nothing of the encoding of its Korean rows further down. After
 * ASCII, it starts a character in any encoding judged. Undefined when the sample has one, or
 * holds the whole of `bytes`.
 */
function firstNonAscii(bytes: Buffer, sample: Buffer): number | undefined {
  if (sample.length === bytes.length) return undefined;
  for (const byte of sample) if (byte >= 0x80 || byte === 0) return undefined;
  for (let i = sample.length; i < bytes.length; i++) if (bytes[i] >= 0x80 || bytes[i] === 0) return i;
  return undefined;
}

/** The byte order marks, longest first (UTF-32LE's begins with UTF-16LE's). */
const MARKS: { bytes: number[]; encoding: string }[] = [
  { bytes: [0xff, 0xfe, 0, 0], encoding: 'utf-32le' },
  { bytes: [0, 0, 0xfe, 0xff], encoding: 'utf-32be' },
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

function byteOrderMark(bytes: Buffer): TextEncoding | undefined {
  for (const mark of MARKS) {
    if (mark.bytes.every((byte, i) => bytes[i] === byte)) {
      // `FF FE 00 00` is also UTF-16LE text opening with U+0000; UTF-32 needs whole 4-byte units.
      if (mark.encoding === 'utf-32le' && bytes.length % 4 !== 0) continue;
      return { encoding: mark.encoding, bomLength: mark.bytes.length };
    }
  }
  return undefined;
}

/** `bytes` without a last code unit cut short (a sample ends anywhere). */
function wholeUnits(bytes: Buffer, encoding: string): Buffer {
  const unit = encoding.startsWith('utf-32') ? 4 : encoding.startsWith('utf-16') ? 2 : 1;
  return bytes.subarray(0, bytes.length - (bytes.length % unit));
}

/**
 * UTF-16 without a byte order mark, told by its zero bytes: ASCII characters (spaces, digits,
 * line breaks, Latin letters) put a zero in every high byte, so zeros pile up at odd offsets
 * (little-endian) or even ones (big-endian) and hardly ever at the other. Binary data has zeros
 * at both.
 */
function utf16WithoutMark(bytes: Buffer): string | undefined {
  const units = bytes.length >> 1;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < units; i++) {
    if (bytes[2 * i] === 0) even++;
    if (bytes[2 * i + 1] === 0) odd++;
  }
  const clearly = (many: number, few: number) => many >= Math.max(2, units / 100) && few * 4 <= many;
  if (clearly(odd, even)) return 'utf-16le';
  if (clearly(even, odd)) return 'utf-16be';
  return undefined;
}

/**
 * Whether decoded text (UTF-16 or UTF-32) is text: no invalid sequence or unpaired surrogate,
 * and few control characters.
 */
function looksLikeText(text: string): boolean {
  let controls = 0;
  let invalid = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0xfffd || code === 0xfffe || code === 0xffff) invalid++;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) i++;
    else if (code >= 0xd800 && code <= 0xdfff) invalid++;
    else if (code < 0x20 ? !ALLOWED_CONTROLS.has(code) : code === 0x7f) controls++;
  }
  return invalid * 100 <= text.length && !tooMany(controls, text.length);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Control characters text holds: tab, line feed, vertical tab, form feed, carriage return, DOS end of file, escape. */
const ALLOWED_CONTROLS = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1a, 0x1b]);

/** Control bytes other than the allowed ones, in an ASCII-compatible encoding's bytes. */
function tooManyControls(bytes: Buffer): boolean {
  let controls = 0;
  for (const byte of bytes) if ((byte < 0x20 && !ALLOWED_CONTROLS.has(byte)) || byte === 0x7f) controls++;
  return tooMany(controls, bytes.length);
}

/** A stray control character or two is a damaged text; more than one in a hundred is binary data. */
function tooMany(controls: number, length: number): boolean {
  return controls > 2 && controls * 100 > length;
}

/** Valid UTF-8; when `truncated`, the last character may be cut short. */
function isUtf8(bytes: Buffer, truncated: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated });
    return true;
  } catch {
    return false;
  }
}

/** A cut sample up to its last line feed, so no double-byte character is cut in half. */
function completeLines(bytes: Buffer, truncated: boolean): Buffer {
  if (!truncated) return bytes;
  const end = bytes.lastIndexOf(0x0a);
  return end > 0 ? bytes.subarray(0, end + 1) : bytes;
}

/**
 * Decoded text as readers see it: no byte order mark, LF line ends (form feed, vertical tab and
 * the Unicode separators included), none of the dropped characters (`withoutDroppedCharacters`).
 */
export function cleanText(text: string): string {
  return withoutDroppedCharacters(text.replace(LINE_BREAK, '\n'));
}

/** Line ends and what else breaks a line: CRLF, CR, form feed, vertical tab, NEL, the Unicode separators. */
const LINE_BREAK = /\r\n?|[\f\v\u0085\u2028\u2029]/g;
