import { compoundFileProblem, isCompoundFile } from './compound-file';
import { msgFile, TAG } from './testing/msg-builder';

/** A small item whose streams are long enough to need chains of several sectors. */
const ITEM = msgFile({
  streams: { [TAG.subject]: 'Loops', [TAG.body]: 'body '.repeat(2000) },
  recipients: [{ streams: { [TAG.displayName]: 'Bob' } }],
  attachments: [{ streams: { [TAG.attachLongFilename]: 'a.txt', [TAG.attachData]: Buffer.alloc(300, 0x61) } }],
});

const SECTOR = 512;
const sectorOffset = (sector: number) => (sector + 1) * SECTOR;

/** The file with one FAT entry changed: `sector`'s next sector becomes `next`. */
function withFatEntry(file: Buffer, sector: number, next: number): Buffer {
  const copy = Buffer.from(file);
  const fatSector = copy.readInt32LE(0x4c + 4 * Math.floor(sector / (SECTOR / 4)));
  copy.writeInt32LE(next, sectorOffset(fatSector) + 4 * (sector % (SECTOR / 4)));
  return copy;
}

/** The next sector of a chain, from the FAT. */
function nextSector(file: Buffer, sector: number): number {
  const fatSector = file.readInt32LE(0x4c + 4 * Math.floor(sector / (SECTOR / 4)));
  return file.readInt32LE(sectorOffset(fatSector) + 4 * (sector % (SECTOR / 4)));
}

/** Where directory entry `index` is, following the directory's chain. */
function entryOffset(file: Buffer, index: number): number {
  let sector = file.readInt32LE(0x30);
  for (let skip = Math.floor(index / 4); skip > 0; skip--) sector = nextSector(file, sector);
  return sectorOffset(sector) + (index % 4) * 128;
}

/** The offset of the first directory entry whose name starts with `prefix`. */
function entryNamed(file: Buffer, prefix: string): number {
  for (let index = 0; ; index++) {
    const offset = entryOffset(file, index);
    const length = file.readUInt16LE(offset + 0x40);
    if (file.toString('utf16le', offset, offset + Math.max(0, length - 2)).startsWith(prefix)) return offset;
  }
}

describe('compoundFileProblem', () => {
  it('passes a sound item', () => {
    expect(isCompoundFile(ITEM)).toBe(true);
    expect(compoundFileProblem(ITEM)).toBeUndefined();
  });

  it('finds a directory chain that loops back on itself', () => {
    const start = ITEM.readInt32LE(0x30);
    expect(compoundFileProblem(withFatEntry(ITEM, start, start))).toBe(
      'the chain of directory sectors loops back on itself',
    );
  });

  it('finds a mini stream chain that loops', () => {
    const first = ITEM.readInt32LE(entryOffset(ITEM, 0) + 0x74);
    expect(compoundFileProblem(withFatEntry(ITEM, first, first))).toBe(
      'the chain of the mini stream loops back on itself',
    );
  });

  it('finds a directory tree that reaches an entry twice', () => {
    const copy = Buffer.from(ITEM);
    const child = copy.readInt32LE(entryOffset(copy, 0) + 0x4c);
    copy.writeInt32LE(child, entryOffset(copy, child) + 0x44);
    expect(compoundFileProblem(copy)).toBe('the directory tree loops back on itself');
  });

  it('finds a stream longer than the file', () => {
    const copy = Buffer.from(ITEM);
    copy.writeInt32LE(0x7fff0000, entryNamed(copy, '__substg1.0_1000') + 0x78);
    expect(compoundFileProblem(copy)).toBe('a stream is longer than the whole file');
  });

  it('refuses what is not a compound file', () => {
    expect(isCompoundFile(Buffer.from('From: a@example.com'))).toBe(false);
    expect(compoundFileProblem(ITEM.subarray(0, 100))).toBe('the file is shorter than a compound file header');
  });
});
