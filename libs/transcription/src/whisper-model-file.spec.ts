import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeWhisperModel } from '../../../test/support/whisper-model';
import { inspectWhisperModel, InvalidWhisperModelError } from './whisper-model-file';

let folder: string;
let model: Buffer;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'whisper-model-file-'));
  await makeWhisperModel(join(folder, 'model.bin'));
  model = await readFile(join(folder, 'model.bin'));
});

afterAll(() => rm(folder, { recursive: true, force: true }));

/** Writes `bytes` under `name` in the test folder and returns its path. */
async function fileOf(name: string, bytes: Buffer): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, bytes);
  return path;
}

/** Rejects when the file is refused; the error names the file and matches `reason`. */
async function expectRefused(path: string, reason: RegExp): Promise<void> {
  const error = await inspectWhisperModel(path).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidWhisperModelError);
  expect((error as Error).message).toContain(path);
  expect((error as InvalidWhisperModelError).reason).toMatch(reason);
}

describe('inspectWhisperModel', () => {
  it('reads the hyperparameters and counts the tensors of a whole model', async () => {
    const info = await inspectWhisperModel(join(folder, 'model.bin'));

    expect(info.hyperparameters).toEqual({
      nVocab: 51865,
      nAudioCtx: 1500,
      nAudioState: 64,
      nAudioHead: 2,
      nAudioLayer: 1,
      nTextCtx: 448,
      nTextState: 64,
      nTextHead: 2,
      nTextLayer: 1,
      nMels: 80,
      ftype: 1,
    });
    expect(info).toMatchObject({ sizeBytes: model.length, multilingual: true, size: 'custom' });
    // 5 stem + 2 final-norm + 15 per layer in the encoder; 4 stem + 24 per layer in the decoder.
    expect(info.tensorCount).toBe(50);
  });

  it.each([
    ['in the hyperparameters', 30, /ends inside the hyperparameters/],
    ['in the mel filters', 1000, /ends inside the mel filters/],
    ['in the vocabulary', 300_000, /ends inside the vocabulary \(token \d+ of 50257\)/],
    ['half-way through the weights', 0.5, /truncated: tensor '[a-z_.0-9]+' needs \d+ bytes/],
    ['one byte short', -1, /truncated: tensor 'decoder.ln.bias' needs 256 bytes of data and only 255 remain/],
  ])('refuses a copy cut short %s', async (_where, cut, reason) => {
    const length = cut < 0 ? model.length + cut : cut < 1 ? Math.floor(model.length * cut) : cut;
    await expectRefused(await fileOf(`cut-${length}.bin`, model.subarray(0, length)), reason);
  });

  it('refuses a copy missing its last tensors', async () => {
    const lastTensor = model.lastIndexOf('decoder.ln.bias') - 12 - 4;
    await expectRefused(await fileOf('incomplete.bin', model.subarray(0, lastTensor)), /1 of 50 tensors are missing/);
  });

  it('refuses random bytes, an empty file, a GGUF file, a folder and a missing file', async () => {
    await expectRefused(await fileOf('random.bin', randomBytes(100_000)), /ggml magic number/);
    await expectRefused(await fileOf('empty.bin', Buffer.alloc(0)), /empty/);
    await expectRefused(await fileOf('model.gguf', Buffer.concat([Buffer.from('GGUF'), randomBytes(100)])), /GGUF/);
    await mkdir(join(folder, 'folder.bin'));
    await expectRefused(join(folder, 'folder.bin'), /not a regular file|folder/);
    await expectRefused(join(folder, 'missing.bin'), /does not exist/);
  });

  it('refuses a weight format whisper.cpp would abort on', async () => {
    const copy = Buffer.from(model);
    copy.writeInt32LE(77, 44);
    await expectRefused(await fileOf('ftype.bin', copy), /weight format \(ftype 77\)/);
  });

  it('refuses a tensor whisper.cpp does not know and one of the wrong shape', async () => {
    const renamed = Buffer.from(model);
    renamed.write('encodex', model.indexOf('encoder.conv1.weight'), 'latin1');
    await expectRefused(await fileOf('renamed.bin', renamed), /does not know: 'encodex.conv1.weight'/);

    const reshaped = Buffer.from(model);
    const shapeOffset = model.indexOf('encoder.ln_post.weight') - 4;
    reshaped.writeInt32LE(63, shapeOffset);
    await expectRefused(
      await fileOf('reshaped.bin', reshaped),
      /'encoder.ln_post.weight' is 63, where whisper.cpp expects 64/,
    );
  });

  it('refuses a vocabulary without the single-space token whisper.cpp decodes with', async () => {
    const copy = Buffer.from(model);
    const vocabulary = 48 + 8 + 80 * 201 * 4;
    const space = model.indexOf(Buffer.from([1, 0, 0, 0, 0x20]), vocabulary);
    copy[space + 4] = 0x21;
    await expectRefused(await fileOf('no-space.bin', copy), /lacks the " " token/);
  });
});
