/** whisper works on 16 kHz mono samples. */
export const SAMPLE_RATE = 16_000;

/** A stretch of a recording, as sample indices: `start` inclusive, `end` exclusive. */
export interface AudioBlock {
  start: number;
  end: number;
}

/** How far before each nominal cut the quietest moment is looked for. */
const CUT_SEARCH_SECONDS = 5;
/** Loudness is compared over windows this long… */
const QUIET_WINDOW_SECONDS = 0.1;
/** …stepped this far apart. */
const QUIET_STEP_SECONDS = 0.01;
/** A last block shorter than this share of a block is merged into the one before. */
const SHORTEST_LAST_BLOCK = 0.25;

/**
 * Splits a recording into blocks of at most about `blockSeconds`, so a long recording is
 * transcribed in steps that can report progress. Each cut is moved back to the quietest tenth
 * of a second in the 5 s before it, so it rarely falls inside a word.
 */
export function planBlocks(samples: Float32Array, blockSeconds: number, sampleRate = SAMPLE_RATE): AudioBlock[] {
  const blockLength = Math.round(blockSeconds * sampleRate);
  const blocks: AudioBlock[] = [];
  let start = 0;
  while (start < samples.length) {
    const rest = samples.length - start;
    if (rest <= blockLength * (1 + SHORTEST_LAST_BLOCK)) {
      blocks.push({ start, end: samples.length });
      break;
    }
    const nominal = start + blockLength;
    const searchFrom = Math.max(start + 1, nominal - Math.round(CUT_SEARCH_SECONDS * sampleRate));
    const end = quietestPoint(samples, searchFrom, nominal, sampleRate);
    blocks.push({ start, end });
    start = end;
  }
  return blocks;
}

/** The middle of the quietest window that fits between `from` and `to`. */
function quietestPoint(samples: Float32Array, from: number, to: number, sampleRate: number): number {
  const window = Math.max(1, Math.round(QUIET_WINDOW_SECONDS * sampleRate));
  const step = Math.max(1, Math.round(QUIET_STEP_SECONDS * sampleRate));
  let best = to;
  let bestEnergy = Infinity;
  for (let windowStart = from; windowStart + window <= to; windowStart += step) {
    let energy = 0;
    for (let i = windowStart; i < windowStart + window; i++) energy += samples[i] * samples[i];
    if (energy < bestEnergy) {
      bestEnergy = energy;
      best = windowStart + Math.floor(window / 2);
    }
  }
  return best;
}
