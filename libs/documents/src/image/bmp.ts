/**
 * Windows bitmaps, which libvips (sharp) cannot read: the header, and uncompressed 1/4/8-bit
 * paletted and 24/32-bit pixels decoded to RGB for sharp's raw input.
 */
export interface BmpInfo {
  width: number;
  height: number;
  bitsPerPixel: number;
  compression: number;
  topDown: boolean;
  dataOffset: number;
  headerSize: number;
}

const MAX_PIXELS = 268_402_689;

export function readBmpInfo(data: Buffer): BmpInfo {
  if (data.length < 26 || data.toString('latin1', 0, 2) !== 'BM') throw new Error('not a BMP file');
  const dataOffset = data.readUInt32LE(10);
  const headerSize = data.readUInt32LE(14);
  if (headerSize < 40 || data.length < 14 + headerSize) throw new Error('unsupported BMP header');
  const width = data.readInt32LE(18);
  const rawHeight = data.readInt32LE(22);
  const bitsPerPixel = data.readUInt16LE(28);
  const compression = data.readUInt32LE(30);
  const height = Math.abs(rawHeight);
  if (width <= 0 || height <= 0 || width * height > MAX_PIXELS) throw new Error('implausible BMP dimensions');
  if (![1, 4, 8, 24, 32].includes(bitsPerPixel)) throw new Error(`${bitsPerPixel}-bit BMP is not supported`);
  if (!(compression === 0 || (compression === 3 && bitsPerPixel === 32)))
    throw new Error('compressed BMP is not supported');
  const rowSize = Math.ceil((width * bitsPerPixel) / 32) * 4;
  if (dataOffset + rowSize * height > data.length) throw new Error('the BMP file is truncated');
  return { width, height, bitsPerPixel, compression, topDown: rawHeight < 0, dataOffset, headerSize };
}

/** RGB pixels, top row first. */
export function decodeBmp(data: Buffer): { pixels: Buffer; width: number; height: number } {
  const info = readBmpInfo(data);
  const { width, height, bitsPerPixel } = info;
  const rowSize = Math.ceil((width * bitsPerPixel) / 32) * 4;
  const paletteAt = 14 + info.headerSize;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const row = info.dataOffset + (info.topDown ? y : height - 1 - y) * rowSize;
    for (let x = 0; x < width; x++) {
      const out = (y * width + x) * 3;
      if (bitsPerPixel >= 24) {
        const at = row + x * (bitsPerPixel / 8);
        pixels[out] = data[at + 2];
        pixels[out + 1] = data[at + 1];
        pixels[out + 2] = data[at];
      } else {
        const bitOffset = x * bitsPerPixel;
        const byte = data[row + (bitOffset >> 3)];
        const index = (byte >> (8 - bitsPerPixel - (bitOffset & 7))) & ((1 << bitsPerPixel) - 1);
        const at = paletteAt + index * 4;
        pixels[out] = data[at + 2] ?? 0;
        pixels[out + 1] = data[at + 1] ?? 0;
        pixels[out + 2] = data[at] ?? 0;
      }
    }
  }
  return { pixels, width, height };
}
