import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDiskStorage } from '@docconv/storage';
import { evalsetPath, readManifest } from './evalset';

describe('storage keeps every evalset input byte for byte', () => {
  const inputs = readManifest().filter((row) => row.role === 'input');
  let root: string;
  let storage: LocalDiskStorage;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'docconv-evalset-storage-'));
    storage = new LocalDiskStorage(root);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('the manifest lists inputs of every format', () => {
    const formats = new Set(inputs.map((row) => row.format));
    for (const format of ['pdf', 'docx', 'pptx', 'xlsx', 'hwp', 'hwpx', 'image', 'audio', 'video']) {
      expect(formats).toContain(format);
    }
  });

  it('streams each input in and reads the same bytes back', async () => {
    for (const [n, row] of inputs.entries()) {
      const path = `inputs/evalset/${n}-${row.path.split('/').pop()}`;
      const { bytes } = await storage.put(path, createReadStream(evalsetPath(row.path)));
      expect(bytes).toBe(row.bytes);
      const back = await storage.read(path);
      expect(createHash('sha256').update(back).digest('hex')).toBe(row.sha256);
    }
  });
});
