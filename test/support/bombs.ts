import { crc32, createDeflateRaw } from 'node:zlib';
import { makeZip, type DeflatedData } from './archives';
import { compressedHwp, greyTiff } from './fixtures';

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
  return compressedHwp((await deflatedZeros(bytes)).body);
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
  return greyTiff(Array.from({ length: frames }, () => ({ width: side, height: side, strip, deflated: true })));
}
