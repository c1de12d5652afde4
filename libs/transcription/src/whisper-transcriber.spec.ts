import { DomainError } from '@docconv/contracts';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeWhisperModel } from '../../../test/support/whisper-model';
import type { Transcript } from './transcriber';
import { InvalidWhisperModelError } from './whisper-model-file';
import { createWhisperTranscriber, type WhisperTranscriber } from './whisper-transcriber';

let folder: string;
let modelPath: string;
let transcriber: WhisperTranscriber;

/** Runs ffmpeg quietly with `args`, writing `name` in the test folder; returns its path. */
function ffmpeg(name: string, args: string[]): string {
  const path = join(folder, name);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args, path]);
  return path;
}

/** A tone of `seconds` with a short break every second, like syllables. */
function tone(seconds: number): string[] {
  return [
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-af',
    'volume=enable=lt(mod(t\\,1)\\,0.2):volume=0',
  ];
}

/** Start and end of every segment lie within the recording, in order, and together cover most of it. */
function expectCovers(transcript: Transcript, seconds: number): void {
  expect(transcript.segments.length).toBeGreaterThan(0);
  let previousEnd = 0;
  for (const segment of transcript.segments) {
    expect(segment.start).toBeGreaterThanOrEqual(previousEnd - 0.01);
    expect(segment.end).toBeGreaterThanOrEqual(segment.start);
    expect(segment.end).toBeLessThanOrEqual(seconds + 0.1);
    expect(segment.text.trim()).not.toBe('');
    previousEnd = segment.end;
  }
  const covered = transcript.segments.reduce((sum, segment) => sum + segment.end - segment.start, 0);
  expect(covered).toBeGreaterThan(seconds * 0.9);
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'whisper-transcriber-'));
  modelPath = join(folder, 'ggml-test.bin');
  await makeWhisperModel(modelPath);
  transcriber = await createWhisperTranscriber({ modelPath, threads: 2, blockSeconds: 30 });
});

afterAll(async () => {
  await transcriber?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('WhisperTranscriber', () => {
  it('transcribes an MP3 into segments inside the recording, with the detected language', async () => {
    const mp3 = ffmpeg('tone.mp3', [...tone(10), '-ar', '16000']);
    const progress: number[] = [];

    const transcript = await transcriber.transcribe(mp3, (fraction) => progress.push(fraction));

    expectCovers(transcript, 10);
    expect(transcript.language).toMatch(/^[a-z]{2,3}$/);
    expect(progress).toEqual([1]);
  });

  it('reads WAV at any rate and the audio track of a video', async () => {
    const wav = ffmpeg('tone.wav', [...tone(10), '-ar', '44100', '-ac', '2']);
    const mp4 = ffmpeg('clip.mp4', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=10:duration=10',
      ...tone(10),
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
    ]);

    const [fromWav, fromVideo] = await Promise.all([transcriber.transcribe(wav), transcriber.transcribe(mp4)]);

    expectCovers(fromWav, 10);
    expectCovers(fromVideo, 10.1);
  });

  it('transcribes a long recording in blocks, reporting progress after each, with times from the start', async () => {
    const mp3 = ffmpeg('long.mp3', [...tone(75), '-ar', '16000']);
    const progress: number[] = [];

    const transcript = await transcriber.transcribe(mp3, (fraction) => progress.push(fraction));

    expectCovers(transcript, 75);
    expect(transcript.segments.at(-1)?.end).toBeGreaterThan(74);
    expect(transcript.segments.some((segment) => segment.start >= 30)).toBe(true);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress[0]).toBeLessThan(0.5);
    expect(progress.at(-1)).toBe(1);
  });

  it('refuses a file without audio as a problem with the file, and carries on', async () => {
    const silentVideo = ffmpeg('video-only.mp4', ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=2']);
    const junk = join(folder, 'junk.mp3');
    await writeFile(junk, randomBytes(20_000));

    for (const path of [silentVideo, junk]) {
      const error = await transcriber.transcribe(path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: 'file_processing_failed' });
      expect((error as Error).message).toMatch(/no audio track that could be decoded/);
      expect((error as Error).message).not.toContain(folder);
    }
    expect((await transcriber.transcribe(ffmpeg('after.mp3', [...tone(3)]))).segments.length).toBeGreaterThan(0);
  });

  it('refuses to start on a truncated model or random bytes, naming the file', async () => {
    const model = await readFile(modelPath);
    const truncated = join(folder, 'truncated.bin');
    const headerOnly = join(folder, 'header-only.bin');
    const random = join(folder, 'random.bin');
    await writeFile(truncated, model.subarray(0, model.length / 2));
    await writeFile(headerOnly, model.subarray(0, 30));
    await writeFile(random, randomBytes(1_000_000));

    for (const path of [truncated, headerOnly, random]) {
      const error = await createWhisperTranscriber({ modelPath: path }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidWhisperModelError);
      expect((error as Error).message).toContain(`Whisper model ${path} is not a loadable whisper.cpp model`);
    }
  });

  it('rejects work after it is closed', async () => {
    const closing = await createWhisperTranscriber({ modelPath, threads: 1 });
    await closing.close();

    await expect(closing.transcribe(join(folder, 'tone.mp3'))).rejects.toThrow(/closed/);
  });
});
