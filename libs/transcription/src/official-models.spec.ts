import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeWhisperModel } from '../../../test/support/whisper-model';
import { describeModel, OFFICIAL_WHISPER_MODELS } from './official-models';

describe('describeModel', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'official-models-'));
  });

  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('names a model that is not an official release by its file and gives its SHA-256', async () => {
    const path = join(folder, 'ggml-home-made.bin');
    await makeWhisperModel(path);
    const bytes = await readFile(path);

    expect(await describeModel(path)).toEqual({
      name: 'ggml-home-made.bin',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      official: false,
      sizeBytes: bytes.length,
    });
  });
});

describe('OFFICIAL_WHISPER_MODELS', () => {
  it('lists each model once, with a lower-case SHA-256 of its own and the published file name', () => {
    const hashes = OFFICIAL_WHISPER_MODELS.map((model) => model.sha256);
    const names = OFFICIAL_WHISPER_MODELS.map((model) => model.name);

    expect(new Set(hashes).size).toBe(hashes.length);
    expect(new Set(names).size).toBe(names.length);
    for (const model of OFFICIAL_WHISPER_MODELS) {
      expect(model.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(model.fileName).toBe(`ggml-${model.name}.bin`);
      expect(model.sizeBytes).toBeGreaterThan(30_000_000);
    }
  });

  it('has every size of the multilingual and English-only families', () => {
    const names = OFFICIAL_WHISPER_MODELS.map((model) => model.name);

    for (const size of ['tiny', 'base', 'small', 'medium'])
      expect(names).toEqual(expect.arrayContaining([size, `${size}.en`]));
    expect(names).toEqual(expect.arrayContaining(['large-v1', 'large-v2', 'large-v3', 'large-v3-turbo']));
  });
});
