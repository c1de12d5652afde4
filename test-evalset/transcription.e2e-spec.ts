import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wer } from '../tools/eval/metrics';
import { fetchChunks } from '../test/support/chunks';
import { upload, waitForJob } from '../test/support/jobs';
import { privateStack, waitForCapabilities } from '../test/support/private-stack';
import { evalsetPath } from './evalset';

/** The engines' Python that scripts/setup.sh installs: faster-whisper with Whisper base. */
const PYTHON = join(__dirname, '..', '.venv-engines', 'bin', 'python');

/** `[mm:ss]` (or `[h:mm:ss]`) timestamps of a transcript, in seconds. */
const stamps = (markdown: string) =>
  [...markdown.matchAll(/^\[(?:(\d+):)?(\d+):(\d{2})\]/gm)].map(
    (m) => Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]),
  );

/** The spoken words of a transcript: its segments without their timestamps. */
const spoken = (markdown: string) => [...markdown.matchAll(/^\[[\d:]+\] (.*)$/gm)].map((m) => m[1]).join(' ');

/** Word error rate the evalset's recordings must stay within. */
const MAX_WER = 0.15;

describe('evalset audio and video through the worker, with the real speech model', () => {
  const { stack, start } = privateStack('evalspeech');

  beforeAll(async () => {
    expect(existsSync(PYTHON)).toBe(true); // scripts/setup.sh creates it
    stack.env.ENGINES_PYTHON = PYTHON;
    await start();
    // Loading the speech model takes a few seconds alone and far longer on a busy machine.
    await waitForCapabilities(stack, (c) => c.transcription.available, 180_000);
  }, 240_000);

  it('names the model in the capabilities: Systran’s Whisper base, multilingual, run by faster-whisper', async () => {
    const capabilities = await waitForCapabilities(stack, (c) => c.transcription.available);
    expect(capabilities.transcription.model).toMatchObject({
      name: 'faster-whisper-base',
      official: true,
      sha256: 'd01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9',
      engine: 'faster-whisper 1.2.1',
    });
    expect(capabilities.transcription.model?.languages).toEqual(expect.arrayContaining(['en', 'ko']));
  });

  async function transcribe(relative: string) {
    const name = relative.split('/')[1];
    const res = await upload(stack.t.http, stack.key.key, [{ name, content: readFileSync(evalsetPath(relative)) }]);
    expect(res.status).toBe(201);
    await stack.t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', stack.key.key).expect(200);
    const job = await waitForJob(stack.t.http, stack.key.key, res.body.job_id as string, ['done', 'error'], 120_000);
    expect({ status: job.status, error: job.error_log }).toEqual({ status: 'done', error: null });
    // Progress is counted in media seconds: all of them once the recording is transcribed.
    expect(job).toMatchObject({ done_media_seconds: job.media_duration_seconds, done_files: 1 });
    const markdown = (
      await stack.t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set('X-API-Key', stack.key.key)
    ).text;
    return { markdown, duration: res.body.media_duration_seconds as number, jobId: res.body.job_id as string };
  }

  it.each(['audio/sample_10s.mp3', 'audio/sample_10s_audio-wav.wav', 'video/sample_10s_video-mp4.mp4'])(
    '%s reaches done: English, timestamped segments, word error rate within 0.15 of its reference',
    async (relative) => {
      const { markdown, duration } = await transcribe(relative);
      expect(markdown).toMatch(/^Language: en$/m);
      const times = stamps(markdown);
      expect(times[0]).toBe(0);
      expect(Math.max(...times)).toBeLessThanOrEqual(duration);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      const reference = readFileSync(evalsetPath(relative.replace(/\.[^.]+$/, '.ref.txt')), 'utf8');
      const rate = wer(reference, spoken(markdown));
      console.log(`${relative}: WER ${rate.toFixed(3)}`);
      expect(rate).toBeLessThanOrEqual(MAX_WER);
    },
    150_000,
  );

  it('audio/markitdown_test.mp3 passes its checks: the numbers one to five; its chunks say when they were spoken', async () => {
    const { markdown, jobId } = await transcribe('audio/markitdown_test.mp3');
    for (const options of [
      { strategy: 'structure', maxTokens: 64, overlapTokens: 16 },
      { strategy: 'page', maxTokens: 512, overlapTokens: 0 },
    ] as const) {
      const { chunks, problems } = await fetchChunks(stack.t.http, stack.key.key, jobId, options);
      expect(problems).toEqual([]);
      const segments = chunks
        .flatMap((chunk) => chunk.blocks)
        .filter((block) => block.position?.start_seconds !== undefined);
      expect(segments.length).toBeGreaterThan(0);
    }
    const checks = JSON.parse(readFileSync(evalsetPath('audio/markitdown_test.checks.json'), 'utf8')) as {
      must_include_any: string[][];
    };
    const text = spoken(markdown).toLowerCase();
    for (const options of checks.must_include_any) {
      expect({ options, found: options.some((o) => text.includes(o.toLowerCase())) }).toEqual({ options, found: true });
    }
  }, 150_000);
});
