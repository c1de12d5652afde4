import { writeMarkdown, type Document } from '@docconv/model';
import { documentPath, Storage } from '@docconv/storage';
import { distEntry } from '@docconv/testing';
import JSZip from 'jszip';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeMedia } from './support/fixtures';
import { binary, pathOf, upload, waitForJob } from './support/jobs';
import { privateStack, waitForCapabilities } from './support/private-stack';
import { makeWhisperModel } from './support/whisper-model';

/** `[mm:ss]` timestamps of a transcript, in seconds. */
const stamps = (markdown: string) =>
  [...markdown.matchAll(/^\[(\d+):(\d{2})\]/gm)].map((m) => Number(m[1]) * 60 + Number(m[2]));

describe('transcription with a whisper model of random weights (the plumbing, not the words)', () => {
  let folder: string;
  let model: string;
  const { stack, start } = privateStack('speech');

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'docconv-whisper-'));
    model = join(folder, 'ggml-random.bin');
    await makeWhisperModel(model);
    stack.env.WHISPER_MODEL_PATH = model;
    await start();
  }, 120_000);
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('names the loaded model in the capabilities, as not one of the official ones', async () => {
    const capabilities = await waitForCapabilities(stack, (c) => c.transcription.available);
    expect(capabilities.transcription.model).toMatchObject({ name: 'ggml-random.bin', official: false });
    expect(capabilities.transcription.model?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['talk.mp3', false, 'audio_seconds'],
    ['clip.mp4', true, 'video_seconds'],
  ] as const)('%s: charged by duration, transcribed into timestamped segments', async (name, video, unit) => {
    const seconds = 6;
    const media = await makeMedia(name.split('.')[1], seconds, video);
    const res = await upload(stack.t.http, stack.key.key, [{ name, content: media }]);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ has_media: true, media_duration_seconds: seconds });
    expect(res.body.cost[unit]).toBe(seconds);
    await stack.t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', stack.key.key).expect(200);
    const job = await waitForJob(stack.t.http, stack.key.key, res.body.job_id as string, ['done', 'error'], 90_000);
    expect({ status: job.status, error: job.error_log }).toEqual({ status: 'done', error: null });
    // A finished recording counts all of its seconds as done.
    expect(job).toMatchObject({
      done_files: 1,
      total_files: 1,
      done_media_seconds: seconds,
      cost_points: res.body.cost.points,
    });

    const markdown = (
      await stack.t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set('X-API-Key', stack.key.key)
    ).text;
    expect(markdown).toMatch(new RegExp(`^## ${name.replace('.', '\\.')}\\n`));
    expect(markdown).toMatch(/^Language: \S+/m);
    const times = stamps(markdown);
    expect(times.length).toBeGreaterThan(0);
    expect(times[0]).toBe(0);
    expect(Math.max(...times)).toBeLessThanOrEqual(seconds);
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    // The job's document is the transcript's: one transcript block per timed segment, result.md written from it.
    const stored = await stack.t.app.get(Storage).read(documentPath(res.body.job_id as string));
    const document = JSON.parse(stored.toString('utf8')) as Document;
    expect(writeMarkdown(document)).toBe(markdown);
    const said = document.blocks.flatMap((block) => (block.type === 'transcript' ? [block.from] : []));
    expect(said.map((from) => [from.file, Math.floor(from.seconds![0])])).toEqual(times.map((time) => [name, time]));

    // A DOCX rendered from that document keeps each segment's time, as the Markdown does.
    const converted = await stack.t.http
      .post(`/api/v1/jobs/${res.body.job_id}/convert`)
      .set('X-API-Key', stack.key.key)
      .send({ format: 'docx' })
      .expect(200);
    const file = await stack.t.http
      .get(pathOf(converted.body.download_url as string))
      .buffer(true)
      .parse(binary)
      .expect(200);
    const xml = await (await JSZip.loadAsync(file.body as Buffer)).file('word/document.xml')!.async('string');
    expect(xml).toContain('[00:00]');
  });

  it('a worker given a truncated model file refuses to start and names the file', async () => {
    const truncated = join(folder, 'cut.bin');
    await writeFile(truncated, (await readFile(model)).subarray(0, 4096));
    const child = spawn(process.execPath, [distEntry('worker')], {
      env: { ...stack.env, WHISPER_MODEL_PATH: truncated },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).not.toBe(0);
    expect(output).toContain(truncated);
  }, 60_000);
});
