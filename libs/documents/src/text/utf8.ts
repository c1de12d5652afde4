import iconv from 'iconv-lite';

/**
 * UTF-8 that is not quite valid: a UTF-8 file with a few bytes of another encoding pasted in
 * (`café` typed in a windows-1252 editor into a UTF-8 CSV) is still a UTF-8 file. Decoding it
 * as a legacy encoding would turn every correct character into mojibake; decoding it as UTF-8
 * turns the stray bytes into U+FFFD. Here the stray bytes are read as windows-1252, which is
 * what they nearly always are.
 */

/** What the bytes say about UTF-8: well-formed multi-byte sequences, and bytes that fit in none. */
export interface Utf8Evidence {
  multiByte: number;
  invalid: number;
}

/**
 * Counts the well-formed multi-byte sequences and the stray bytes of `bytes`. When `truncated`
 * (a sample, which may end anywhere), a sequence cut short by the end is neither.
 */
export function utf8Evidence(bytes: Uint8Array, truncated: boolean): Utf8Evidence {
  let invalid = 0;
  const multiByte = walkUtf8(bytes, (at) => {
    if (!(truncated && cutShort(bytes, at))) invalid++;
  });
  return { multiByte, invalid };
}

/**
 * Whether the evidence says UTF-8 with a few stray bytes: at least two well-formed multi-byte
 * sequences and three times as many as stray bytes. Text in a legacy encoding rarely forms one
 * (a lead byte followed by exactly the right number of continuation bytes), and never mostly.
 */
export function mostlyUtf8({ multiByte, invalid }: Utf8Evidence): boolean {
  return multiByte >= 2 && multiByte >= 3 * invalid;
}

/** `bytes` as UTF-8, each byte outside a well-formed sequence read as windows-1252. */
export function decodeUtf8(bytes: Buffer): string {
  let out = '';
  let start = 0;
  walkUtf8(bytes, (at) => {
    out += bytes.toString('utf8', start, at) + iconv.decode(bytes.subarray(at, at + 1), 'windows-1252');
    start = at + 1;
  });
  return out + bytes.toString('utf8', start);
}

/** Walks the bytes sequence by sequence, calling `stray` with each byte that fits in no well-formed one; returns how many multi-byte sequences it met. */
function walkUtf8(bytes: Uint8Array, stray: (at: number) => void): number {
  let multiByte = 0;
  for (let i = 0; i < bytes.length;) {
    const length = bytes[i] < 0x80 ? 1 : sequenceLength(bytes, i);
    if (length > 1) multiByte++;
    else if (length === 0) stray(i);
    i += Math.max(1, length);
  }
  return multiByte;
}

/** Length of the well-formed UTF-8 sequence at `i` (2–4), or 0 (Unicode 15, table 3-7). */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const shape = sequenceShape(bytes[i]);
  if (!shape || i + shape.length > bytes.length) return 0;
  if (bytes[i + 1] < shape.low || bytes[i + 1] > shape.high) return 0;
  for (let k = 2; k < shape.length; k++) if (!isContinuation(bytes[i + k])) return 0;
  return shape.length;
}

/** A lead byte's sequence length and the range its second byte must be in (no overlongs, no surrogates). */
function sequenceShape(lead: number): { length: number; low: number; high: number } | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return { length: 2, low: 0x80, high: 0xbf };
  if (lead === 0xe0) return { length: 3, low: 0xa0, high: 0xbf };
  if (lead === 0xed) return { length: 3, low: 0x80, high: 0x9f };
  if (lead >= 0xe1 && lead <= 0xef) return { length: 3, low: 0x80, high: 0xbf };
  if (lead === 0xf0) return { length: 4, low: 0x90, high: 0xbf };
  if (lead >= 0xf1 && lead <= 0xf3) return { length: 4, low: 0x80, high: 0xbf };
  if (lead === 0xf4) return { length: 4, low: 0x80, high: 0x8f };
  return undefined;
}

function isContinuation(byte: number): boolean {
  return byte >= 0x80 && byte <= 0xbf;
}

/** Whether the bytes from `i` to the end are the start of a sequence the end cut short. */
function cutShort(bytes: Uint8Array, i: number): boolean {
  const lead = bytes[i];
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0;
  if (length === 0 || i + length <= bytes.length) return false;
  for (let k = i + 1; k < bytes.length; k++) if (!isContinuation(bytes[k])) return false;
  return true;
}
