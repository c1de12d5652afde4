import iconv from 'iconv-lite';

/**
 * Windows code pages as iconv-lite names, for those that iconv-lite does not know as `cp<n>`:
 * Outlook stores the code page of a message's 8-bit strings (PidTagMessageCodepage) and of its
 * HTML body (PidTagInternetCodepage) as these numbers.
 */
const CODEPAGES: Record<number, string> = {
  1200: 'utf16le',
  1201: 'utf16be',
  20127: 'ascii',
  20866: 'koi8r',
  21866: 'koi8u',
  28591: 'latin1',
  28592: 'iso88592',
  28595: 'iso88595',
  28597: 'iso88597',
  28599: 'iso88599',
  28605: 'iso885915',
  50220: 'iso2022jp',
  50221: 'iso2022jp',
  50222: 'iso2022jp',
  51932: 'eucjp',
  51936: 'gb2312',
  51949: 'euckr',
  52936: 'gb2312',
  54936: 'gb18030',
  65001: 'utf8',
};

/** `iso2022jp` is not an iconv-lite encoding: `decodeBytes` turns such text into EUC-JP first. */
const ISO_2022_JP = 'iso2022jp';

/**
 * The encoding for a Windows code page, or `undefined` for one we cannot decode. Korean (949,
 * 51949), Japanese (932, 50220–50222, 51932), Chinese (936, 950, 54936) and the Windows and ISO
 * single-byte pages are known.
 */
export function encodingForCodepage(codepage: number | undefined): string | undefined {
  if (codepage === undefined || !Number.isInteger(codepage) || codepage <= 0) return undefined;
  const name = CODEPAGES[codepage] ?? `cp${codepage}`;
  return name === ISO_2022_JP || iconv.encodingExists(name) ? name : undefined;
}

/** The encoding a charset label names (`Shift_JIS`, `ks_c_5601-1987`, `ISO-2022-JP`), or `undefined` for one we cannot decode. */
export function encodingForCharset(label: string | undefined): string | undefined {
  if (!label) return undefined;
  const name = label.trim().toLowerCase();
  if (name.replace(/[^a-z0-9]/g, '') === ISO_2022_JP) return ISO_2022_JP;
  return iconv.encodingExists(name) ? name : undefined;
}

/** Bytes as text in `encoding` (UTF-8 when it is unknown); a byte order mark decides for itself. */
export function decodeBytes(bytes: Uint8Array, encoding: string | undefined): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) return buffer.subarray(3).toString('utf8');
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return iconv.decode(buffer.subarray(2), 'utf16le');
  if (encoding === ISO_2022_JP) return iconv.decode(iso2022jpToEucJp(buffer), 'eucjp');
  if (!encoding || !iconv.encodingExists(encoding)) return buffer.toString('utf8');
  return iconv.decode(buffer, encoding);
}

/** The charset an HTML document declares in its first bytes (`<meta charset>` or `http-equiv`), if any. */
export function declaredHtmlCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 4096)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.+-]+)/i.exec(head)?.[1];
}

/** Escape sequences of ISO-2022-JP (RFC 1468, with JIS X 0201 katakana and JIS X 0212) and what they switch to. */
type JisSet = 'ascii' | 'jis0208' | 'katakana' | 'jis0212';
const ESCAPES: [number[], JisSet][] = [
  [[0x28, 0x42], 'ascii'], // ESC ( B
  [[0x28, 0x4a], 'ascii'], // ESC ( J  JIS X 0201 Roman: ASCII but for ¥ and ‾
  [[0x28, 0x49], 'katakana'], // ESC ( I
  [[0x24, 0x40], 'jis0208'], // ESC $ @  JIS C 6226-1978
  [[0x24, 0x42], 'jis0208'], // ESC $ B
  [[0x24, 0x28, 0x44], 'jis0212'], // ESC $ ( D
];

/**
 * ISO-2022-JP bytes as EUC-JP, which iconv-lite decodes: the same JIS code points, marked by the
 * high bit (and `8E` / `8F` before katakana and JIS X 0212) instead of by escape sequences.
 */
export function iso2022jpToEucJp(source: Buffer): Buffer {
  const out = Buffer.alloc(source.length * 2);
  let length = 0;
  let set: JisSet = 'ascii';
  for (let i = 0; i < source.length; i++) {
    const byte = source[i];
    if (byte === 0x1b) {
      const escape = ESCAPES.find(([tail]) => tail.every((b, k) => source[i + 1 + k] === b));
      if (escape) {
        set = escape[1];
        i += escape[0].length;
        continue;
      }
    }
    if (byte === 0x0a || byte === 0x0d) set = 'ascii';
    const graphic = byte >= 0x21 && byte <= 0x7e;
    if (!graphic || set === 'ascii') {
      out[length++] = byte;
    } else if (set === 'katakana') {
      out[length++] = 0x8e;
      out[length++] = byte | 0x80;
    } else {
      if (set === 'jis0212') out[length++] = 0x8f;
      out[length++] = byte | 0x80;
      out[length++] = (source[++i] ?? 0x21) | 0x80;
    }
  }
  return out.subarray(0, length);
}
