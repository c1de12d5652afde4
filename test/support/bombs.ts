import { crc32, createDeflateRaw } from 'node:zlib';
import { makeZip, type DeflatedData } from './archives';

const CHUNK = 16 * 1024 * 1024;

/**
 * `bytes` zero bytes, raw-deflated a chunk at a time so that they are never held: about 1 MB per
 * GiB. What decompression bombs are made of.
 */
export async function deflatedZeros(bytes: number): Promise<DeflatedData> {
  const zeros = Buffer.alloc(Math.min(CHUNK, bytes));
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  let crc = 0;
  for (let left = bytes; left > 0; left -= zeros.length) {
    const chunk = left >= zeros.length ? zeros : zeros.subarray(0, left);
    crc = crc32(chunk, crc);
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return { body: Buffer.concat(out), size: bytes, crc };
}

export const GIB = 1024 * 1024 * 1024;

/** An HWP 5 file whose body section inflates to `bytes` of zeros (its page count reads the section). */
export async function hwpBomb(bytes = GIB): Promise<Buffer> {
  const { default: CFB } = await import('cfb');
  const { deflateRawSync } = await import('node:zlib');
  const fileHeader = Buffer.alloc(256);
  fileHeader.write('HWP Document File', 0, 'latin1');
  fileHeader.writeUInt32LE(0x05000300, 32);
  fileHeader.writeUInt32LE(1, 36); // compressed
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, '/FileHeader', fileHeader);
  CFB.utils.cfb_add(container, '/DocInfo', deflateRawSync(Buffer.alloc(0)));
  CFB.utils.cfb_add(container, '/BodyText/Section0', (await deflatedZeros(bytes)).body);
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

/** An HWPX file whose one section inflates to `bytes` of zeros. */
export async function hwpxBomb(bytes = GIB): Promise<Buffer> {
  return makeZip([
    { name: 'mimetype', data: 'application/hwp+zip', store: true },
    { name: 'Contents/section0.xml', deflated: await deflatedZeros(bytes) },
  ]);
}

/** An OpenDocument text whose content inflates to `bytes` of zeros. */
export async function odtBomb(bytes = GIB): Promise<Buffer> {
  return makeZip([
    { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', store: true },
    { name: 'META-INF/manifest.xml', data: '<manifest:manifest/>' },
    { name: 'content.xml', deflated: await deflatedZeros(bytes) },
  ]);
}

/** An EPUB whose one chapter inflates to `bytes` of zeros. */
export async function epubBomb(bytes = GIB): Promise<Buffer> {
  return makeZip([
    { name: 'mimetype', data: 'application/epub+zip', store: true },
    {
      name: 'META-INF/container.xml',
      data: '<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>',
    },
    { name: 'OEBPS/chapter1.xhtml', deflated: await deflatedZeros(bytes) },
  ]);
}

/** A PNG of `side` × `side` black grey pixels: small on disk, `side`² bytes once decoded. */
export async function pngBomb(side = 40_000): Promise<Buffer> {
  const row = side + 1; // a filter byte, then the pixels
  const idat = await deflatedZeros(row * side).then(async (raw) => zlibWrap(raw));
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A zlib stream (header, raw deflate, Adler-32) around raw-deflated zeros. */
function zlibWrap(raw: DeflatedData): Buffer {
  // Adler-32 of n zeros: a = 1, b = n mod 65521.
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((raw.size % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), raw.body, adler]);
}

/**
 * A TIFF of `frames` frames, each `side` × `side` deflate-compressed black pixels: a few KB per
 * frame on disk, `side`² bytes each once decoded.
 */
export async function tiffBomb(frames = 8, side = 30_000): Promise<Buffer> {
  const strip = zlibWrap(await deflatedZeros(side * side));
  const parts: Buffer[] = [];
  const header = Buffer.alloc(8);
  header.write('II', 0, 'latin1');
  header.writeUInt16LE(42, 2);
  header.writeUInt32LE(8, 4);
  parts.push(header);
  let offset = 8;
  const entries = (stripOffset: number): [number, number, number][] => [
    [256, 4, side], // width
    [257, 4, side], // height
    [258, 3, 8], // bits per sample
    [259, 3, 8], // deflate
    [262, 3, 1], // black is zero
    [273, 4, stripOffset],
    [277, 3, 1], // samples per pixel
    [278, 4, side], // rows per strip
    [279, 4, strip.length],
  ];
  for (let frame = 0; frame < frames; frame++) {
    const count = entries(0).length;
    const ifdSize = 2 + count * 12 + 4;
    const stripOffset = offset + ifdSize;
    const next = frame === frames - 1 ? 0 : stripOffset + strip.length;
    const ifd = Buffer.alloc(ifdSize);
    ifd.writeUInt16LE(count, 0);
    entries(stripOffset).forEach(([tag, type, value], i) => {
      const at = 2 + i * 12;
      ifd.writeUInt16LE(tag, at);
      ifd.writeUInt16LE(type, at + 2);
      ifd.writeUInt32LE(1, at + 4);
      if (type === 3) ifd.writeUInt16LE(value, at + 8);
      else ifd.writeUInt32LE(value, at + 8);
    });
    ifd.writeUInt32LE(next, 2 + count * 12);
    parts.push(ifd, strip);
    offset = stripOffset + strip.length;
  }
  return Buffer.concat(parts);
}
