import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

export interface ZipEntrySpec {
  /** Stored as given; a Buffer keeps bytes that are not UTF-8 (e.g. CP949 names). */
  name: string | Buffer;
  data?: Buffer | string;
  /** Set the UTF-8 name flag (bit 11). Default: true for string names. */
  utf8?: boolean;
  /** Unix mode bits stored in the external attributes, e.g. 0o120777 for a symlink. */
  mode?: number;
  store?: boolean;
  /** Overrides the declared uncompressed size (to lie about it). */
  declaredSize?: number;
  /** Data deflated ahead of time (too large to hold), with its size and CRC-32; replaces `data`. */
  deflated?: DeflatedData;
}

/** Raw-deflated bytes and what they inflate to. */
export interface DeflatedData {
  body: Buffer;
  size: number;
  crc: number;
}

/** A zip writer that does exactly what it is told, including what a safe writer refuses. */
export function makeZip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const spec of entries) {
    const name = Buffer.isBuffer(spec.name) ? spec.name : Buffer.from(spec.name, 'utf8');
    const data = Buffer.isBuffer(spec.data) ? spec.data : Buffer.from(spec.data ?? '', 'utf8');
    const body = spec.deflated?.body ?? (spec.store ? data : deflateRawSync(data));
    const method = spec.store && !spec.deflated ? 0 : 8;
    const flags = (spec.utf8 ?? !Buffer.isBuffer(spec.name)) ? 0x800 : 0;
    const crc = spec.deflated?.crc ?? crc32(data);
    const size = spec.declaredSize ?? spec.deflated?.size ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((spec.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export interface TarEntrySpec {
  name: string;
  data?: Buffer | string;
  /** ustar type flag: '0' file, '2' symlink, '1' hard link, '3' char device, '5' directory. */
  type?: string;
  linkname?: string;
}

/** A ustar writer, equally obedient. */
export function makeTar(entries: TarEntrySpec[], gzip = false): Buffer {
  const blocks: Buffer[] = [];
  for (const spec of entries) {
    const data = Buffer.isBuffer(spec.data) ? spec.data : Buffer.from(spec.data ?? '', 'utf8');
    const header = Buffer.alloc(512);
    header.write(spec.name.slice(0, 100), 0, 'utf8');
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(data.length.toString(8).padStart(11, '0') + '\0', 124);
    header.write('00000000000\0', 136);
    header.write('        ', 148);
    header.write(spec.type ?? '0', 156);
    if (spec.linkname) header.write(spec.linkname, 157);
    header.write('ustar\u000000', 257, 'binary');
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  const tar = Buffer.concat(blocks);
  return gzip ? gzipSync(tar) : tar;
}
