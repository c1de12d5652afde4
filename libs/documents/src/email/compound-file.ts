/**
 * A structural check of a compound file ([MS-CFB]) before msgreader reads it. msgreader follows
 * sector chains and walks the directory tree without noticing a loop, so one damaged or crafted
 * sector number sends it round forever, growing its lists until memory runs out; a stream size
 * past the file's end makes it allocate that much. This walks the same structures the same way
 * msgreader does (the header's sector tables and their extension, the directory chain, the
 * directory tree, the mini-sector tables and every stream's chain), each sector and entry at most
 * once, and names the first loop or impossible size it meets. A file that passes is one msgreader
 * reads in time proportional to its size; anything else wrong with it msgreader reports itself.
 */

const SIGNATURE = Buffer.from('d0cf11e0a1b11ae1', 'hex');
const END_OF_CHAIN = -2;
const FREE_SECTOR = -1;
const NO_ENTRY = -1;
const HEADER_TABLE_ENTRIES = 109;
const ENTRY_SIZE = 128;
/** A directory entry's object type. */
const ENTRY_TYPE = { storage: 1, stream: 2, root: 5 } as const;
/** Streams shorter than this live in the mini stream, in 64-byte sectors. */
const MINI_STREAM_CUTOFF = 4096;

/** Whether the bytes start like a compound file (what msgreader's own check looks at). */
export function isCompoundFile(file: Buffer): boolean {
  return file.length >= SIGNATURE.length && file.subarray(0, SIGNATURE.length).equals(SIGNATURE);
}

/** What is wrong with the file's structure, or `undefined` when msgreader can walk it safely. */
export function compoundFileProblem(file: Buffer): string | undefined {
  if (file.length < 512) return 'the file is shorter than a compound file header';
  return new CompoundFileCheck(file).problem();
}

class CompoundFileCheck {
  private readonly sectorSize: number;
  private readonly perSector: number;
  private readonly fat: number[] = [];
  private readonly miniFat: number[] = [];

  constructor(private readonly file: Buffer) {
    this.sectorSize = file[30] === 12 ? 4096 : 512;
    this.perSector = this.sectorSize / 4;
  }

  problem(): string | undefined {
    return this.readFatSectors() ?? this.readDirectory();
  }

  private int(offset: number): number | undefined {
    return offset >= 0 && offset + 4 <= this.file.length ? this.file.readInt32LE(offset) : undefined;
  }

  private sectorOffset(sector: number): number {
    return (sector + 1) * this.sectorSize;
  }

  /** The next sector of a chain through `table` (the FAT's or the mini FAT's sectors); any sector outside it ends the chain. */
  private next(sector: number, table: number[]): number {
    if (sector < 0) return END_OF_CHAIN;
    const tableSector = table[Math.floor(sector / this.perSector)];
    if (tableSector === undefined) return END_OF_CHAIN;
    return this.int(this.sectorOffset(tableSector) + 4 * (sector % this.perSector)) ?? END_OF_CHAIN;
  }

  /** The sectors of a chain, or a problem when it loops back on itself. */
  private chain(start: number, table: number[], what: string): number[] | string {
    const seen = new Set<number>();
    for (let sector = start; sector !== END_OF_CHAIN; sector = this.next(sector, table)) {
      if (seen.has(sector)) return `the chain of ${what} loops back on itself`;
      seen.add(sector);
    }
    return [...seen];
  }

  /** The FAT's sectors: those the header lists, then those its extension (the DIFAT chain) lists. */
  private readFatSectors(): string | undefined {
    const count = this.int(0x2c) ?? 0;
    const inHeader = Math.max(0, Math.min(count, HEADER_TABLE_ENTRIES));
    for (let i = 0; i < inHeader; i++) this.fat.push(this.int(0x4c + 4 * i) ?? FREE_SECTOR);
    let remaining = count - inHeader;
    let next = this.int(0x44) ?? END_OF_CHAIN;
    const extensionSectors = this.int(0x48) ?? 0;
    const seen = new Set<number>();
    for (let i = 0; i < extensionSectors; i++) {
      if (seen.has(next)) return 'the chain of sector tables loops back on itself';
      seen.add(next);
      const offset = this.sectorOffset(next);
      if (offset < 0 || offset + this.sectorSize > this.file.length) return undefined; // msgreader stops with an error
      const take = Math.min(remaining, this.perSector - 1);
      for (let j = 0; j < take; j++) {
        const sector = this.int(offset + 4 * j)!;
        if (sector === FREE_SECTOR || sector === END_OF_CHAIN) break;
        this.fat.push(sector);
      }
      remaining -= take;
      next = this.int(offset + 4 * (this.perSector - 1))!;
      if (next === FREE_SECTOR || next === END_OF_CHAIN) break;
    }
    return undefined;
  }

  /** The mini FAT's sectors, as msgreader collects them: at most the header's count, up to the chain's end. */
  private readMiniFatSectors(): string | undefined {
    const count = this.int(0x40) ?? 0;
    const seen = new Set<number>();
    let sector = this.int(0x3c) ?? END_OF_CHAIN;
    for (let i = 0; i < count && sector !== 0 && sector !== END_OF_CHAIN; i++) {
      if (seen.has(sector)) return 'the chain of mini-sector tables loops back on itself';
      seen.add(sector);
      this.miniFat.push(sector);
      sector = this.next(sector, this.fat);
    }
    return undefined;
  }

  /** The directory: its chain, its tree (each entry reached once), the mini stream and every stream's chain. */
  private readDirectory(): string | undefined {
    const sectors = this.chain(this.int(0x30) ?? END_OF_CHAIN, this.fat, 'directory sectors');
    if (typeof sectors === 'string') return sectors;
    const entries: number[] = [];
    for (const sector of sectors) {
      for (let k = 0; k < this.sectorSize / ENTRY_SIZE; k++) {
        const offset = this.sectorOffset(sector) + k * ENTRY_SIZE;
        if (offset + ENTRY_SIZE > this.file.length) break;
        entries.push(offset);
      }
    }
    if (entries.length === 0) return 'the file has no directory';
    const tree = this.tree(entries);
    if (typeof tree === 'string') return tree;
    const miniStream = this.chain(this.int(entries[0] + 0x74) ?? END_OF_CHAIN, this.fat, 'the mini stream');
    if (typeof miniStream === 'string') return miniStream;
    const problem = this.readMiniFatSectors();
    if (problem) return problem;
    for (const entry of tree) {
      if (this.file[entry + 0x42] !== ENTRY_TYPE.stream) continue;
      const size = this.int(entry + 0x78) ?? 0;
      if (size > this.file.length) return 'a stream is longer than the whole file';
      if (size <= 0 || size >= MINI_STREAM_CUTOFF) continue;
      const chain = this.chain(this.int(entry + 0x74) ?? END_OF_CHAIN, this.miniFat, 'a small stream');
      if (typeof chain === 'string') return chain;
    }
    return undefined;
  }

  /** The offsets of the entries under the root, each reached once, or a problem when one is reached twice or is missing. */
  private tree(entries: number[]): number[] | string {
    const reached = new Set<number>([0]);
    const storages = [0];
    while (storages.length > 0) {
      const storage = storages.pop()!;
      const child = this.int(entries[storage] + 0x4c) ?? NO_ENTRY;
      const pending = child === NO_ENTRY ? [] : [child];
      while (pending.length > 0) {
        const index = pending.pop()!;
        if (index < 0 || index >= entries.length) return 'the directory names an entry it does not have';
        if (reached.has(index)) return 'the directory tree loops back on itself';
        reached.add(index);
        const entry = entries[index];
        const type = this.file[entry + 0x42];
        if (type === ENTRY_TYPE.storage) storages.push(index);
        // msgreader reads an entry of no known type as an empty one, without siblings.
        if (type !== ENTRY_TYPE.storage && type !== ENTRY_TYPE.stream && type !== ENTRY_TYPE.root) continue;
        for (const sibling of [this.int(entry + 0x44), this.int(entry + 0x48)]) {
          if (sibling !== undefined && sibling !== NO_ENTRY) pending.push(sibling);
        }
      }
    }
    return [...reached].map((index) => entries[index]);
  }
}
