import { open, type FileHandle } from 'node:fs/promises';

/**
 * Reads and checks a whisper.cpp model file (the ggml `.bin` format) without loading its
 * weights. whisper.cpp trusts the file: a wrong weight format aborts the process, a header cut
 * short makes it allocate nonsense sizes, and a file that ends before its first tensor loads as
 * an "empty test model". So every file is checked here before whisper.cpp sees it: the magic
 * number, the hyperparameters, the mel filters, the vocabulary, and every tensor's name, shape,
 * type and data, which must all lie inside the file.
 *
 * File layout (see whisper.cpp's `whisper_model_load`): magic 0x67676d6c; eleven int32
 * hyperparameters; mel filters (n_mel, n_fft, then n_mel × n_fft float32); the vocabulary
 * (a count, then length-prefixed token strings); then tensors, each `n_dims`, name length,
 * type, `n_dims` sizes, the name and the data.
 */

/** The model file cannot be loaded; `reason` says why in a few words. */
export class InvalidWhisperModelError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(
      `Whisper model ${path} is not a loadable whisper.cpp model: ${reason}. ` +
        'Point WHISPER_MODEL_PATH at a ggml .bin model, such as ggml-base.bin from huggingface.co/ggerganov/whisper.cpp.',
    );
    this.name = 'InvalidWhisperModelError';
  }
}

export interface WhisperHyperparameters {
  nVocab: number;
  nAudioCtx: number;
  nAudioState: number;
  nAudioHead: number;
  nAudioLayer: number;
  nTextCtx: number;
  nTextState: number;
  nTextHead: number;
  nTextLayer: number;
  nMels: number;
  /** The weight format (0 f32, 1 f16, others quantised), without the quantisation version. */
  ftype: number;
}

/** What the checked file holds. */
export interface WhisperModelInfo {
  path: string;
  sizeBytes: number;
  hyperparameters: WhisperHyperparameters;
  /** whisper.cpp's size class, from the number of encoder layers. */
  size: 'tiny' | 'base' | 'small' | 'medium' | 'large' | 'custom';
  /** False for the English-only (`.en`) models. */
  multilingual: boolean;
  tensorCount: number;
}

/** Checks the model file at `path`; rejects with an `InvalidWhisperModelError` naming what is wrong. */
export async function inspectWhisperModel(path: string): Promise<WhisperModelInfo> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    throw new InvalidWhisperModelError(path, unreadable(error));
  }
  try {
    const stats = await file.stat();
    if (!stats.isFile()) throw new ModelProblem('it is not a regular file');
    const size = stats.size;
    const cursor = new FileCursor(file, size);
    const hyperparameters = await readHeader(cursor);
    await checkMelFilters(cursor, hyperparameters);
    await checkVocabulary(cursor, hyperparameters);
    const tensorCount = await checkTensors(cursor, hyperparameters);
    return {
      path,
      sizeBytes: size,
      hyperparameters,
      size: sizeClass(hyperparameters.nAudioLayer),
      multilingual: hyperparameters.nVocab >= MULTILINGUAL_VOCABULARY,
      tensorCount,
    };
  } catch (error) {
    if (error instanceof ModelProblem) throw new InvalidWhisperModelError(path, error.message);
    throw new InvalidWhisperModelError(path, unreadable(error));
  } finally {
    await file.close();
  }
}

const GGML_MAGIC = 0x67676d6c;
const GGUF_MAGIC = 0x46554747;
/** The vocabulary size from which whisper.cpp treats a model as multilingual. */
const MULTILINGUAL_VOCABULARY = 51865;
/** Frequency bins of whisper's 400-point FFT, the only filter width whisper.cpp computes. */
const FFT_BINS = 201;
/** `ftype` carries a quantisation version in its thousands. */
const QUANTISATION_VERSION_FACTOR = 1000;
/** Longer than any byte-pair token; a larger length means the vocabulary is corrupt. */
const MAX_TOKEN_BYTES = 4096;

/** A defect of the file, worded for the person who configured it. */
class ModelProblem extends Error {}

/** A ggml tensor type: elements per block and bytes per block. */
interface TensorType {
  name: string;
  blockElements: number;
  blockBytes: number;
}

const TENSOR_TYPES = new Map<number, TensorType>([
  [0, { name: 'f32', blockElements: 1, blockBytes: 4 }],
  [1, { name: 'f16', blockElements: 1, blockBytes: 2 }],
  [2, { name: 'q4_0', blockElements: 32, blockBytes: 18 }],
  [3, { name: 'q4_1', blockElements: 32, blockBytes: 20 }],
  [6, { name: 'q5_0', blockElements: 32, blockBytes: 22 }],
  [7, { name: 'q5_1', blockElements: 32, blockBytes: 24 }],
  [8, { name: 'q8_0', blockElements: 32, blockBytes: 34 }],
  [10, { name: 'q2_k', blockElements: 256, blockBytes: 84 }],
  [11, { name: 'q3_k', blockElements: 256, blockBytes: 110 }],
  [12, { name: 'q4_k', blockElements: 256, blockBytes: 144 }],
  [13, { name: 'q5_k', blockElements: 256, blockBytes: 176 }],
  [14, { name: 'q6_k', blockElements: 256, blockBytes: 210 }],
]);

/** The file-level weight formats whisper.cpp accepts (`ftype`), and the tensor type of the big matrices. */
const WEIGHT_TYPE_OF_FTYPE = new Map<number, number>([
  [0, 0],
  [1, 1],
  [2, 2],
  [3, 3],
  [7, 8],
  [8, 6],
  [9, 7],
  [10, 10],
  [11, 11],
  [12, 12],
  [13, 13],
  [14, 14],
]);
const TYPE_F32 = 0;
const TYPE_F16 = 1;

async function readHeader(cursor: FileCursor): Promise<WhisperHyperparameters> {
  if (cursor.size === 0) throw new ModelProblem('the file is empty');
  const magic = await cursor.uint32('the magic number');
  if (magic === GGUF_MAGIC)
    throw new ModelProblem('it is a GGUF file, and whisper.cpp reads the older ggml .bin format');
  if (magic !== GGML_MAGIC) throw new ModelProblem('it does not start with the ggml magic number 0x67676d6c');

  const values: number[] = [];
  for (let i = 0; i < 11; i++) values.push(await cursor.int32('the hyperparameters'));
  const [nVocab, nAudioCtx, nAudioState, nAudioHead, nAudioLayer, nTextCtx, nTextState, nTextHead, nTextLayer] = values;
  const nMels = values[9];
  const ftype = values[10] % QUANTISATION_VERSION_FACTOR;
  const hyperparameters = {
    nVocab,
    nAudioCtx,
    nAudioState,
    nAudioHead,
    nAudioLayer,
    nTextCtx,
    nTextState,
    nTextHead,
    nTextLayer,
    nMels,
    ftype,
  };
  checkHyperparameters(hyperparameters, values[10]);
  return hyperparameters;
}

function checkHyperparameters(h: WhisperHyperparameters, rawFtype: number): void {
  const limits: [keyof WhisperHyperparameters, number][] = [
    ['nVocab', 1_000_000],
    ['nAudioCtx', 100_000],
    ['nAudioState', 65_536],
    ['nAudioHead', 1024],
    ['nAudioLayer', 1024],
    ['nTextCtx', 100_000],
    ['nTextState', 65_536],
    ['nTextHead', 1024],
    ['nTextLayer', 1024],
    ['nMels', 1024],
  ];
  for (const [name, max] of limits) {
    if (!(h[name] >= 1 && h[name] <= max)) throw new ModelProblem(`its header has an impossible ${name} of ${h[name]}`);
  }
  if (h.nAudioState !== h.nTextState)
    throw new ModelProblem(`its audio and text widths differ (${h.nAudioState} and ${h.nTextState})`);
  if (h.nAudioState % h.nAudioHead !== 0 || h.nTextState % h.nTextHead !== 0)
    throw new ModelProblem('its attention heads do not divide its width');
  if (rawFtype < 0 || !WEIGHT_TYPE_OF_FTYPE.has(h.ftype))
    throw new ModelProblem(`its weight format (ftype ${rawFtype}) is not one whisper.cpp supports`);
}

async function checkMelFilters(cursor: FileCursor, h: WhisperHyperparameters): Promise<void> {
  const nMel = await cursor.int32('the mel filters');
  const nFft = await cursor.int32('the mel filters');
  if (nMel !== h.nMels || nFft !== FFT_BINS)
    throw new ModelProblem(`its mel filters are ${nMel} × ${nFft}, where whisper.cpp needs ${h.nMels} × ${FFT_BINS}`);
  cursor.skip(nMel * nFft * 4, 'the mel filters');
}

async function checkVocabulary(cursor: FileCursor, h: WhisperHyperparameters): Promise<void> {
  const count = await cursor.int32('the vocabulary');
  if (count < 0 || count > h.nVocab)
    throw new ModelProblem(`its vocabulary lists ${count} tokens, where the header allows ${h.nVocab}`);
  let hasSpace = false;
  for (let i = 0; i < count; i++) {
    const where = `the vocabulary (token ${i} of ${count})`;
    const length = await cursor.uint32(where);
    if (length > MAX_TOKEN_BYTES) throw new ModelProblem(`token ${i} of its vocabulary claims ${length} bytes`);
    if (length === 1) hasSpace ||= (await cursor.bytes(1, where))[0] === 0x20;
    else cursor.skip(length, where);
  }
  // whisper.cpp looks the single space up by text while decoding and aborts when it is missing.
  if (!hasSpace) throw new ModelProblem('its vocabulary lacks the " " token');
}

/** Checks every tensor against the ones whisper.cpp builds from the hyperparameters; returns how many there are. */
async function checkTensors(cursor: FileCursor, h: WhisperHyperparameters): Promise<number> {
  const expected = expectedTensors(h);
  const seen = new Set<string>();
  while (cursor.remaining > 0) {
    const where = `the header of tensor ${seen.size + 1}`;
    const nDims = await cursor.int32(where);
    const nameLength = await cursor.int32(where);
    const typeId = await cursor.int32(where);
    if (nDims < 1 || nDims > 4 || nameLength < 1 || nameLength > 1024)
      throw new ModelProblem(`the header of tensor ${seen.size + 1} is corrupt`);
    const shape: number[] = [];
    for (let i = 0; i < nDims; i++) shape.push(await cursor.int32(where));
    const name = (await cursor.bytes(nameLength, where)).toString('latin1');

    const wanted = expected.get(name);
    if (!wanted) throw new ModelProblem(`it has a tensor whisper.cpp does not know: '${printable(name)}'`);
    if (seen.has(name)) throw new ModelProblem(`tensor '${name}' appears twice`);
    if (!sameShape(shape, wanted.shape))
      throw new ModelProblem(
        `tensor '${name}' is ${shape.join(' × ')}, where whisper.cpp expects ${wanted.shape.join(' × ')}`,
      );
    const type = TENSOR_TYPES.get(typeId);
    if (typeId !== wanted.type || !type)
      throw new ModelProblem(
        `tensor '${name}' is stored as ${TENSOR_TYPES.get(typeId)?.name ?? `type ${typeId}`}, where whisper.cpp expects ${TENSOR_TYPES.get(wanted.type)?.name}`,
      );
    if (shape[0] % type.blockElements !== 0)
      throw new ModelProblem(`tensor '${name}' does not split into whole ${type.name} blocks`);
    const dataBytes = (shape.reduce((a, b) => a * b, 1) / type.blockElements) * type.blockBytes;
    if (dataBytes > cursor.remaining)
      throw new ModelProblem(
        `the file is truncated: tensor '${name}' needs ${dataBytes} bytes of data and only ${cursor.remaining} remain`,
      );
    cursor.skip(dataBytes, `tensor '${name}'`);
    seen.add(name);
  }
  const missing = [...expected.keys()].filter((name) => !seen.has(name));
  if (missing.length > 0)
    throw new ModelProblem(
      `the file is truncated or incomplete: ${missing.length} of ${expected.size} tensors are missing, the first '${missing[0]}'`,
    );
  return seen.size;
}

interface ExpectedTensor {
  /** ggml order: the first size varies fastest. */
  shape: number[];
  type: number;
}

/** The tensors `whisper_model_load` creates, with their shapes and types. */
function expectedTensors(h: WhisperHyperparameters): Map<string, ExpectedTensor> {
  const state = h.nAudioState;
  const weight = WEIGHT_TYPE_OF_FTYPE.get(h.ftype) ?? TYPE_F16;
  const conv = weight === TYPE_F32 ? TYPE_F32 : TYPE_F16;
  const tensors = new Map<string, ExpectedTensor>();
  const add = (name: string, shape: number[], type = TYPE_F32) => tensors.set(name, { shape, type });
  const norm = (prefix: string) => {
    add(`${prefix}.weight`, [state]);
    add(`${prefix}.bias`, [state]);
  };
  const attention = (prefix: string) => {
    add(`${prefix}.query.weight`, [state, state], weight);
    add(`${prefix}.query.bias`, [state]);
    add(`${prefix}.key.weight`, [state, state], weight);
    add(`${prefix}.value.weight`, [state, state], weight);
    add(`${prefix}.value.bias`, [state]);
    add(`${prefix}.out.weight`, [state, state], weight);
    add(`${prefix}.out.bias`, [state]);
  };
  const mlp = (prefix: string) => {
    add(`${prefix}.mlp.0.weight`, [state, 4 * state], weight);
    add(`${prefix}.mlp.0.bias`, [4 * state]);
    add(`${prefix}.mlp.2.weight`, [4 * state, state], weight);
    add(`${prefix}.mlp.2.bias`, [state]);
    norm(`${prefix}.mlp_ln`);
  };

  add('encoder.positional_embedding', [state, h.nAudioCtx]);
  add('encoder.conv1.weight', [3, h.nMels, state], conv);
  add('encoder.conv1.bias', [1, state]);
  add('encoder.conv2.weight', [3, state, state], conv);
  add('encoder.conv2.bias', [1, state]);
  norm('encoder.ln_post');
  for (let i = 0; i < h.nAudioLayer; i++) {
    attention(`encoder.blocks.${i}.attn`);
    norm(`encoder.blocks.${i}.attn_ln`);
    mlp(`encoder.blocks.${i}`);
  }
  add('decoder.positional_embedding', [state, h.nTextCtx]);
  add('decoder.token_embedding.weight', [state, h.nVocab], weight);
  norm('decoder.ln');
  for (let i = 0; i < h.nTextLayer; i++) {
    attention(`decoder.blocks.${i}.attn`);
    norm(`decoder.blocks.${i}.attn_ln`);
    attention(`decoder.blocks.${i}.cross_attn`);
    norm(`decoder.blocks.${i}.cross_attn_ln`);
    mlp(`decoder.blocks.${i}`);
  }
  return tensors;
}

function sameShape(actual: number[], expected: number[]): boolean {
  const padded = (shape: number[]) => [...shape, 1, 1, 1, 1].slice(0, 4);
  const [a, b] = [padded(actual), padded(expected)];
  return a.every((size, i) => size === b[i]);
}

function sizeClass(encoderLayers: number): WhisperModelInfo['size'] {
  const classes: Record<number, WhisperModelInfo['size']> = {
    4: 'tiny',
    6: 'base',
    12: 'small',
    24: 'medium',
    32: 'large',
  };
  return classes[encoderLayers] ?? 'custom';
}

function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 80);
}

function unreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'the file does not exist';
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'EACCES' || code === 'EPERM') return 'the file cannot be read (permission denied)';
  return `the file cannot be read (${error instanceof Error ? error.message : String(error)})`;
}

/** Sequential reads through a file, a few kilobytes at a time, failing cleanly at the end of the file. */
class FileCursor {
  private buffer = Buffer.alloc(0);
  private bufferStart = 0;
  private offset = 0;

  constructor(
    private readonly file: FileHandle,
    readonly size: number,
  ) {}

  get remaining(): number {
    return this.size - this.offset;
  }

  /** `length` bytes from the current position; `where` names the part of the file for the error message. */
  async bytes(length: number, where: string): Promise<Buffer> {
    if (length > this.remaining) throw new ModelProblem(`the file is truncated: it ends inside ${where}`);
    const start = this.offset - this.bufferStart;
    if (start < 0 || start + length > this.buffer.length) {
      const wanted = Math.min(Math.max(length, 16 * 1024), this.remaining);
      const { buffer, bytesRead } = await this.file.read(Buffer.alloc(wanted), 0, wanted, this.offset);
      this.buffer = buffer.subarray(0, bytesRead);
      this.bufferStart = this.offset;
      if (bytesRead < length) throw new ModelProblem(`the file is truncated: it ends inside ${where}`);
    }
    const from = this.offset - this.bufferStart;
    this.offset += length;
    return this.buffer.subarray(from, from + length);
  }

  async int32(where: string): Promise<number> {
    return (await this.bytes(4, where)).readInt32LE(0);
  }

  async uint32(where: string): Promise<number> {
    return (await this.bytes(4, where)).readUInt32LE(0);
  }

  skip(length: number, where: string): void {
    if (length > this.remaining) throw new ModelProblem(`the file is truncated: it ends inside ${where}`);
    this.offset += length;
  }
}
