/**
 * The integer properties of an OLE property set stream (`\x05SummaryInformation`,
 * `\x05DocumentSummaryInformation`) as [MS-OLEPS] lays them out: a header naming the sections,
 * and in the first section a table of (property id, offset) pairs, each offset pointing at a
 * typed value. Only 16- and 32-bit integers are read: the counts we need (pages, slides) are
 * stored as those. Anything out of bounds is left out rather than thrown, as the counts have a
 * fallback.
 */

/** Page count in the SummaryInformation set (Word). */
export const PIDSI_PAGECOUNT = 0x0e;
/** Slide count in the DocumentSummaryInformation set (PowerPoint). */
export const PIDDSI_SLIDECOUNT = 0x07;

const BYTE_ORDER_MARK = 0xfffe;
const VT_I2 = 2;
const VT_I4 = 3;
const VT_UI4 = 19;

/** The integer properties of the stream's first section by property id; empty when the stream is not a property set. */
export function propertySetIntegers(stream: Buffer): Map<number, number> {
  const values = new Map<number, number>();
  if (stream.length < 48 || stream.readUInt16LE(0) !== BYTE_ORDER_MARK || stream.readUInt32LE(24) < 1) return values;
  const section = stream.readUInt32LE(44);
  if (section + 8 > stream.length) return values;
  const count = stream.readUInt32LE(section + 4);
  for (let i = 0; i < count; i++) {
    const entry = section + 8 + i * 8;
    if (entry + 8 > stream.length) break;
    const id = stream.readUInt32LE(entry);
    const at = section + stream.readUInt32LE(entry + 4);
    const value = integerAt(stream, at);
    if (value !== undefined) values.set(id, value);
  }
  return values;
}

/** A typed integer value (type, padding, value), or undefined for other types or a value out of bounds. */
function integerAt(stream: Buffer, at: number): number | undefined {
  if (at + 8 > stream.length) return undefined;
  switch (stream.readUInt16LE(at)) {
    case VT_I2:
      return stream.readInt16LE(at + 4);
    case VT_I4:
      return stream.readInt32LE(at + 4);
    case VT_UI4:
      return stream.readUInt32LE(at + 4);
    default:
      return undefined;
  }
}
