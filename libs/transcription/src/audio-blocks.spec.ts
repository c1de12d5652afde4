import { planBlocks } from './audio-blocks';

const RATE = 1000;

/** A loud recording of `seconds`, silent for 0.2 s from each of `quietAt`. */
function recording(seconds: number, quietAt: number[] = []): Float32Array {
  const samples = new Float32Array(seconds * RATE);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.sin(i / 3) * 0.5;
  for (const second of quietAt) samples.fill(0, second * RATE, (second + 0.2) * RATE);
  return samples;
}

describe('planBlocks', () => {
  it('keeps a recording shorter than a block whole', () => {
    expect(planBlocks(recording(20), 30, RATE)).toEqual([{ start: 0, end: 20 * RATE }]);
  });

  it('cuts at the quietest moment in the seconds before each nominal cut', () => {
    const ends = planBlocks(recording(100, [27, 56]), 30, RATE).map((block) => block.end / RATE);

    expect(ends.slice(0, 2)).toEqual([27.05, 56.05]);
    expect(ends[2]).toBeGreaterThanOrEqual(81.05);
    expect(ends[2]).toBeLessThanOrEqual(86.05);
    expect(ends.slice(3)).toEqual([100]);
  });

  it('covers every sample exactly once and never makes a block longer than asked', () => {
    const samples = recording(301);
    const blocks = planBlocks(samples, 60, RATE);

    expect(blocks[0].start).toBe(0);
    expect(blocks.at(-1)?.end).toBe(samples.length);
    blocks.slice(1).forEach((block, i) => expect(block.start).toBe(blocks[i].end));
    blocks.slice(0, -1).forEach((block) => expect(block.end - block.start).toBeLessThanOrEqual(60 * RATE));
  });

  it('merges a short tail into the block before it', () => {
    const blocks = planBlocks(recording(35), 30, RATE);

    expect(blocks).toEqual([{ start: 0, end: 35 * RATE }]);
  });

  it('plans nothing for an empty recording', () => {
    expect(planBlocks(new Float32Array(0), 30, RATE)).toEqual([]);
  });
});
