import { writeFile } from 'node:fs/promises';

/**
 * A whisper.cpp model file for tests: whisper's real architecture and ggml file format
 * (hyperparameters, mel filters, vocabulary, then every tensor `whisper_model_load` expects,
 * named, shaped and typed as in OpenAI's checkpoints) with pseudo-random weights and tiny
 * dimensions, so the file is about 8 MB and transcribes 30 s of audio in about 0.1 s.
 *
 * Random weights would decode random tokens up to whisper.cpp's limit of 220 per window, fail
 * its repetition checks and decode again at five more temperatures. Instead the output side is
 * biased so that each 30 s window decodes `<|0.00|> <word> <|30.00|>` and stops: one segment per
 * window. whisper.cpp's timestamp rules do most of the work:
 *
 * - first token: only timestamps up to 1.00 s are allowed, and `<|0.00|>` (30) outweighs any text;
 * - after a lone timestamp no timestamp is allowed, and the word (20) outweighs end-of-text (5);
 * - after the word, `<|30.00|>` (40) wins; when the window holds the end of the audio, decoding
 *   stops there;
 * - in longer recordings whisper.cpp then asks for one more token, where text is not allowed and
 *   the 30.00 s timestamp suppresses itself (below), so end-of-text ends the window.
 *
 * The bias lives in the final layer norm and the token embeddings. `decoder.ln.weight` is 0 on
 * dimension 0 and `decoder.ln.bias` is 1 there, so every token's logit starts at its embedding's
 * dimension 0 (`LOGIT_BIAS`). Dimension 1 is negative in `decoder.ln.weight` and large only in the
 * 30.00 s timestamp's embedding, so right after that token its own logit falls far below
 * end-of-text. The other dimensions carry small random values, enough for language detection to
 * pick a language from the audio. Everything else (convolutions, attention, MLPs) is random and
 * fully computed.
 */

/** Multilingual vocabulary size of tiny, base, small, medium and large-v1/v2. */
const N_VOCAB = 51865;
/** Ordinary (byte-pair) tokens stored in the file; whisper.cpp adds the 1608 special tokens itself. */
const N_TEXT_TOKENS = 50257;
const N_AUDIO_CTX = 1500;
const N_TEXT_CTX = 448;
const N_STATE = 64;
const N_HEAD = 2;
const N_LAYER = 1;
const N_MELS = 80;
const N_FFT_BINS = 201;
const SAMPLE_RATE = 16_000;

const GGML_MAGIC = 0x67676d6c;
/** `ftype` 1: matrices in f16, vectors in f32. */
const FTYPE_F16 = 1;
const TYPE_F32 = 0;
const TYPE_F16 = 1;

/** Token ids of a multilingual vocabulary (whisper.cpp's `whisper_vocab` after adjustment). */
const TOKEN_SPACE = 220;
const TOKEN_WORD = 1000;
const TOKEN_EOT = 50257;
const TOKEN_BEG = 50364;
const TOKEN_LAST_TIMESTAMP = N_VOCAB - 1;

/** Dimension-0 logit of the tokens that steer decoding; every other token gets 0. */
const LOGIT_BIAS = new Map<number, number>([
  [TOKEN_WORD, 20],
  [TOKEN_EOT, 5],
  [TOKEN_BEG, 30],
  [TOKEN_LAST_TIMESTAMP, 40],
]);
/** Dimension 1 of the 30.00 s timestamp's embedding, and the layer-norm weight that turns it into self-suppression. */
const LAST_TIMESTAMP_MARK = 16;
const SELF_SUPPRESSION = -4;

const WEIGHT_SCALE = 0.02;

// Local names: under Jest, every lookup of the global `Math` goes through the sandbox and
// makes the millions of calls below about fifty times slower.
const { cos, exp, imul, log, max, min, PI, sin, sqrt } = Math;

/** Writes the test model to `path`. The weights come from a fixed seed: the same file every time. */
export async function makeWhisperModel(path: string): Promise<void> {
  const random = gaussian(seededUniform(0x5eed));
  const parts: Buffer[] = [header(), melFilters(), vocabulary()];
  for (const tensor of tensors(random)) parts.push(encodeTensor(tensor));
  await writeFile(path, Buffer.concat(parts));
}

interface Tensor {
  name: string;
  /** ggml order: `shape[0]` varies fastest (PyTorch's shape reversed). */
  shape: number[];
  type: typeof TYPE_F32 | typeof TYPE_F16;
  data: Float32Array;
}

function header(): Buffer {
  const values = [
    GGML_MAGIC,
    N_VOCAB,
    N_AUDIO_CTX,
    N_STATE,
    N_HEAD,
    N_LAYER,
    N_TEXT_CTX,
    N_STATE,
    N_HEAD,
    N_LAYER,
    N_MELS,
    FTYPE_F16,
  ];
  const buffer = Buffer.alloc(values.length * 4);
  values.forEach((value, i) => buffer.writeUInt32LE(value, i * 4));
  return buffer;
}

/** `n_mel`, `n_fft`, then librosa's Slaney-normalised mel filterbank for 16 kHz and a 400-point FFT. */
function melFilters(): Buffer {
  const filters = slaneyMelFilterbank(N_MELS, N_FFT_BINS, SAMPLE_RATE);
  const buffer = Buffer.alloc(8 + filters.length * 4);
  buffer.writeInt32LE(N_MELS, 0);
  buffer.writeInt32LE(N_FFT_BINS, 4);
  Buffer.from(filters.buffer).copy(buffer, 8);
  return buffer;
}

function slaneyMelFilterbank(nMels: number, nBins: number, sampleRate: number): Float32Array {
  const hzToMel = (hz: number) => (hz < 1000 ? (3 * hz) / 200 : 15 + log(hz / 1000) / (log(6.4) / 27));
  const melToHz = (mel: number) => (mel < 15 ? (200 * mel) / 3 : 1000 * exp((log(6.4) / 27) * (mel - 15)));
  const maxMel = hzToMel(sampleRate / 2);
  const edges = Array.from({ length: nMels + 2 }, (_, i) => melToHz((maxMel * i) / (nMels + 1)));
  const filters = new Float32Array(nMels * nBins);
  for (let m = 0; m < nMels; m++) {
    const [low, centre, high] = [edges[m], edges[m + 1], edges[m + 2]];
    const norm = 2 / (high - low);
    for (let bin = 0; bin < nBins; bin++) {
      const hz = (bin * sampleRate) / 2 / (nBins - 1);
      const rising = (hz - low) / (centre - low);
      const falling = (high - hz) / (high - centre);
      filters[m * nBins + bin] = max(0, min(rising, falling)) * norm;
    }
  }
  return filters;
}

/** Placeholder strings (" token17"); id 220 is the single space, which whisper.cpp looks up by text. */
function vocabulary(): Buffer {
  const parts: Buffer[] = [int32(N_TEXT_TOKENS)];
  for (let id = 0; id < N_TEXT_TOKENS; id++) {
    const text = Buffer.from(id === TOKEN_SPACE ? ' ' : ` token${id}`, 'utf8');
    parts.push(int32(text.length), text);
  }
  return Buffer.concat(parts);
}

/** Every tensor of the model in the order OpenAI's state dict lists them. */
function tensors(random: () => number): Tensor[] {
  const matrix = (name: string, columns: number, rows: number): Tensor =>
    f16(
      name,
      [columns, rows],
      fill(columns * rows, () => random() * WEIGHT_SCALE),
    );
  const vector = (name: string, length: number, value: () => number): Tensor =>
    f32(name, [length], fill(length, value));
  const bias = (name: string, length: number) => vector(name, length, () => random() * WEIGHT_SCALE);
  const norm = (prefix: string): Tensor[] => [
    vector(`${prefix}.weight`, N_STATE, () => 1 + random() * WEIGHT_SCALE),
    bias(`${prefix}.bias`, N_STATE),
  ];
  const attention = (prefix: string): Tensor[] => [
    matrix(`${prefix}.query.weight`, N_STATE, N_STATE),
    bias(`${prefix}.query.bias`, N_STATE),
    matrix(`${prefix}.key.weight`, N_STATE, N_STATE),
    matrix(`${prefix}.value.weight`, N_STATE, N_STATE),
    bias(`${prefix}.value.bias`, N_STATE),
    matrix(`${prefix}.out.weight`, N_STATE, N_STATE),
    bias(`${prefix}.out.bias`, N_STATE),
  ];
  const mlp = (prefix: string): Tensor[] => [
    matrix(`${prefix}.mlp.0.weight`, N_STATE, 4 * N_STATE),
    bias(`${prefix}.mlp.0.bias`, 4 * N_STATE),
    matrix(`${prefix}.mlp.2.weight`, 4 * N_STATE, N_STATE),
    bias(`${prefix}.mlp.2.bias`, N_STATE),
    ...norm(`${prefix}.mlp_ln`),
  ];
  const layers = (count: number, block: (prefix: string) => Tensor[]) =>
    Array.from({ length: count }, (_, i) => block(`${i}`)).flat();

  return [
    f32('encoder.positional_embedding', [N_STATE, N_AUDIO_CTX], sinusoids(N_AUDIO_CTX, N_STATE)),
    f16(
      'encoder.conv1.weight',
      [3, N_MELS, N_STATE],
      fill(3 * N_MELS * N_STATE, () => random() * WEIGHT_SCALE),
    ),
    f32(
      'encoder.conv1.bias',
      [1, N_STATE],
      fill(N_STATE, () => random() * WEIGHT_SCALE),
    ),
    f16(
      'encoder.conv2.weight',
      [3, N_STATE, N_STATE],
      fill(3 * N_STATE * N_STATE, () => random() * WEIGHT_SCALE),
    ),
    f32(
      'encoder.conv2.bias',
      [1, N_STATE],
      fill(N_STATE, () => random() * WEIGHT_SCALE),
    ),
    ...layers(N_LAYER, (i) => [
      ...attention(`encoder.blocks.${i}.attn`),
      ...norm(`encoder.blocks.${i}.attn_ln`),
      ...mlp(`encoder.blocks.${i}`),
    ]),
    ...norm('encoder.ln_post'),
    f32(
      'decoder.positional_embedding',
      [N_STATE, N_TEXT_CTX],
      fill(N_STATE * N_TEXT_CTX, () => random() * 0.01),
    ),
    f16('decoder.token_embedding.weight', [N_STATE, N_VOCAB], tokenEmbedding(random)),
    ...layers(N_LAYER, (i) => [
      ...attention(`decoder.blocks.${i}.attn`),
      ...norm(`decoder.blocks.${i}.attn_ln`),
      ...attention(`decoder.blocks.${i}.cross_attn`),
      ...norm(`decoder.blocks.${i}.cross_attn_ln`),
      ...mlp(`decoder.blocks.${i}`),
    ]),
    f32('decoder.ln.weight', [N_STATE], finalNormWeight(random)),
    f32(
      'decoder.ln.bias',
      [N_STATE],
      fill(N_STATE, (i) => (i === 0 ? 1 : 0)),
    ),
  ];
}

/** Row per token: the steering logit in dimension 0, the self-suppression mark in dimension 1, noise elsewhere. */
function tokenEmbedding(random: () => number): Float32Array {
  const data = new Float32Array(N_VOCAB * N_STATE);
  for (let token = 0; token < N_VOCAB; token++) {
    const row = token * N_STATE;
    data[row] = LOGIT_BIAS.get(token) ?? 0;
    data[row + 1] = token === TOKEN_LAST_TIMESTAMP ? LAST_TIMESTAMP_MARK : 0;
    for (let i = 2; i < N_STATE; i++) data[row + i] = random() * WEIGHT_SCALE;
  }
  return data;
}

function finalNormWeight(random: () => number): Float32Array {
  return fill(N_STATE, (i) => (i === 0 ? 0 : i === 1 ? SELF_SUPPRESSION : random() * 0.05));
}

/** OpenAI's fixed sinusoidal positions for the audio encoder. */
function sinusoids(length: number, channels: number): Float32Array {
  const half = channels / 2;
  const increment = log(10_000) / (half - 1);
  const data = new Float32Array(length * channels);
  for (let t = 0; t < length; t++) {
    for (let i = 0; i < half; i++) {
      const angle = t * exp(-increment * i);
      data[t * channels + i] = sin(angle);
      data[t * channels + half + i] = cos(angle);
    }
  }
  return data;
}

function f32(name: string, shape: number[], data: Float32Array): Tensor {
  return { name, shape, type: TYPE_F32, data };
}

function f16(name: string, shape: number[], data: Float32Array): Tensor {
  return { name, shape, type: TYPE_F16, data };
}

function fill(length: number, value: (index: number) => number): Float32Array {
  const data = new Float32Array(length);
  for (let i = 0; i < length; i++) data[i] = value(i);
  return data;
}

/** `n_dims`, name length, type, the dimensions, the name, then the data. */
function encodeTensor({ name, shape, type, data }: Tensor): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const head = Buffer.alloc(12 + shape.length * 4);
  head.writeInt32LE(shape.length, 0);
  head.writeInt32LE(nameBytes.length, 4);
  head.writeInt32LE(type, 8);
  shape.forEach((size, i) => head.writeInt32LE(size, 12 + i * 4));
  const body = type === TYPE_F32 ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : toHalfFloats(data);
  return Buffer.concat([head, nameBytes, body]);
}

function toHalfFloats(data: Float32Array): Buffer {
  const buffer = Buffer.alloc(data.length * 2);
  for (let i = 0; i < data.length; i++) buffer.writeUInt16LE(halfFloatBits(data[i]), i * 2);
  return buffer;
}

const floatView = new Float32Array(1);
const bitsView = new Uint32Array(floatView.buffer);

/** IEEE 754 binary16 bits of `value`, rounded to nearest (the values here are small and finite). */
function halfFloatBits(value: number): number {
  floatView[0] = value;
  const bits = bitsView[0];
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  const mantissa = bits & 0x7fffff;
  if (exponent <= 0) {
    if (exponent < -10) return sign;
    const shifted = (mantissa | 0x800000) >>> (1 - exponent);
    return sign | ((shifted + 0x1000) >>> 13);
  }
  if (exponent >= 31) return sign | 0x7c00;
  return (sign | (exponent << 10) | (mantissa >>> 13)) + ((mantissa >>> 12) & 1);
}

function int32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32LE(value, 0);
  return buffer;
}

/** Mulberry32: a small deterministic generator of uniform numbers in [0, 1). */
function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal numbers from uniform ones (Box–Muller). */
function gaussian(uniform: () => number): () => number {
  return () => sqrt(-2 * log(1 - uniform())) * cos(2 * PI * uniform());
}
