import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { upload, waitForJob } from '../test/support/jobs';
import { privateStack } from '../test/support/private-stack';
import { makeWhisperModel } from '../test/support/whisper-model';
import { evalsetPath } from './evalset';

/** `[mm:ss]` (or `[h:mm:ss]`) timestamps of a transcript, in seconds. */
const stamps = (markdown: string) =>
  [...markdown.matchAll(/^\[(?:(\d+):)?(\d+):(\d{2})\]/gm)].map(
    (m) => Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]),
  );

describe('evalset audio and video through the worker, with a generated whisper model', () => {
  let folder: string;
  const { stack, start } = privateStack('evalspeech');

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'docconv-whisper-'));
    stack.env.WHISPER_MODEL_PATH = join(folder, 'ggml-random.bin');
    await makeWhisperModel(stack.env.WHISPER_MODEL_PATH);
    await start();
  }, 120_000);
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it.each(['audio/sample_10s.mp3', 'video/sample_10s_video-mp4.mp4'])(
    '%s reaches done with timestamped segments covering its duration',
    async (relative) => {
      const name = relative.split('/')[1];
      // The API learns about transcription from the worker's report; retry until it has.
      let res = await upload(stack.t.http, stack.key.key, [{ name, content: readFileSync(evalsetPath(relative)) }]);
      for (let i = 0; res.status === 400 && res.body.code === 'transcription_unavailable' && i < 50; i++) {
        await new Promise((r) => setTimeout(r, 200));
        res = await upload(stack.t.http, stack.key.key, [{ name, content: readFileSync(evalsetPath(relative)) }]);
      }
      expect(res.status).toBe(201);
      const duration = res.body.media_duration_seconds as number;
      expect(duration).toBeGreaterThanOrEqual(9);
      await stack.t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', stack.key.key).expect(200);
      const job = await waitForJob(stack.t.http, stack.key.key, res.body.job_id as string, ['done', 'error'], 120_000);
      expect({ status: job.status, error: job.error_log }).toEqual({ status: 'done', error: null });
      const markdown = (
        await stack.t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set('X-API-Key', stack.key.key)
      ).text;
      const times = stamps(markdown);
      expect(times[0]).toBe(0);
      expect(Math.max(...times)).toBeLessThanOrEqual(duration);
      expect(markdown).toMatch(/^Language: \S+/m);
    },
    150_000,
  );
});
