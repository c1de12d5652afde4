import { DomainError } from '@docconv/contracts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeMedia } from '../../../test/support/fixtures';
import { EngineTranscriber } from './engine-transcriber';
import { transcriptMarkdown } from './markdown';

/** The engines' Python that scripts/setup.sh installs, with faster-whisper and Whisper base. */
const PYTHON = join(__dirname, '..', '..', '..', '.venv-engines', 'bin', 'python');

describe('EngineTranscriber with faster-whisper and Whisper base', () => {
  let transcriber: EngineTranscriber;
  let folder: string;
  beforeAll(async () => {
    transcriber = await EngineTranscriber.create({ python: PYTHON });
    folder = await mkdtemp(join(tmpdir(), 'docconv-speech-'));
  }, 120_000);
  afterAll(async () => {
    await transcriber.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("names the model it loaded: Systran's conversion of Whisper base, multilingual", () => {
    expect(transcriber.model).toMatchObject({
      name: 'faster-whisper-base',
      official: true,
      multilingual: true,
      sha256: 'd01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9',
      engine: 'faster-whisper',
    });
    expect(transcriber.model.languages).toEqual(expect.arrayContaining(['en', 'ko', 'ja']));
  });

  it('transcribes the audio track of a video, reporting progress up to the end', async () => {
    const path = join(folder, 'clip.mp4');
    await writeFile(path, await makeMedia('mp4', 4, true));
    const progress: number[] = [];
    const transcript = await transcriber.transcribe(path, (p) => progress.push(p));
    expect(transcript.language).toMatch(/^[a-z]{2,3}$/);
    expect(transcript.note).toBeUndefined(); // a multilingual model
    expect(progress.at(-1)).toBe(1);
    for (const segment of transcript.segments) {
      expect(segment.start).toBeGreaterThanOrEqual(0);
      expect(segment.end).toBeLessThanOrEqual(4.5);
    }
    expect(transcriptMarkdown('clip.mp4', transcript)).toMatch(/^## clip\.mp4\n\nLanguage: [a-z]+\n/);
  }, 120_000);

  it('answers a file that is no recording with file_processing_failed, and goes on', async () => {
    const path = join(folder, 'noise.mp3');
    await writeFile(path, Buffer.from('this is not audio at all'));
    const failed = transcriber.transcribe(path);
    await expect(failed).rejects.toBeInstanceOf(DomainError);
    await expect(failed).rejects.toMatchObject({ code: 'file_processing_failed' });
    await expect(failed).rejects.toThrow(/^The recording could not be transcribed: speech engine: /);
    const wav = join(folder, 'tone.wav');
    await writeFile(wav, await makeMedia('wav', 2));
    await expect(transcriber.transcribe(wav)).resolves.toMatchObject({ segments: expect.any(Array) });
  }, 120_000);

  it('fails a recording past its deadline, and the next one runs on a new process', async () => {
    const path = join(folder, 'long.wav');
    await writeFile(path, await makeMedia('wav', 30));
    const pid = await transcriber.pid();
    await expect(transcriber.transcribe(path, undefined, Date.now() + 50)).rejects.toThrow(
      /speech engine gave no answer within/,
    );
    const short = join(folder, 'short.wav');
    await writeFile(short, await makeMedia('wav', 1));
    await expect(transcriber.transcribe(short)).resolves.toMatchObject({ segments: expect.any(Array) });
    expect(await transcriber.pid()).not.toBe(pid);
  }, 120_000);
});
