import { AVLogLevel, decodeAudio, splitAudioFromVideo } from '@napi-rs/whisper';
import { spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { SAMPLE_RATE } from './audio-blocks';

/** No decoder could get audio out of the file. */
export class UnreadableAudioError extends Error {
  constructor(reason: string) {
    super(`The file has no audio track that could be decoded${reason ? ` (${reason})` : ''}.`);
    this.name = 'UnreadableAudioError';
  }
}

/**
 * The audio of a file as 16 kHz mono float samples, which is what whisper takes. Decoders are
 * tried in turn: the binding's FFmpeg libraries (MP3, M4A, FLAC, Ogg, Opus and the audio track
 * of MP4, MKV, WebM, MOV…; blocking, so call this off the main thread), then the binding's
 * Symphonia decoder (WAV, which the first rejects), then the `ffmpeg` program when installed.
 */
export async function decodeAudioFile(path: string): Promise<Float32Array> {
  // A missing file is the caller's mistake, not the recording's: let that error through as it is.
  if (!(await stat(path)).isFile()) throw new Error(`${path} is not a file`);
  const reasons: string[] = [];
  const attempts: (() => Float32Array | Promise<Float32Array>)[] = [
    () => splitAudioFromVideo(path, AVLogLevel.Quiet),
    async () => decodeAudio(await readFile(path), basename(path)),
    () => decodeWithFfmpeg(path),
  ];
  for (const attempt of attempts) {
    try {
      return await attempt();
    } catch (error) {
      reasons.push(reasonOf(error, path));
    }
  }
  throw new UnreadableAudioError(reasons.find((reason) => reason !== '') ?? '');
}

/** `ffmpeg -i <path> -ac 1 -ar 16000 -f f32le -`: the first audio track, resampled. */
function decodeWithFfmpeg(path: string): Promise<Float32Array> {
  return new Promise((resolve, reject) => {
    const args = ['-nostdin', '-v', 'error', '-i', path, '-map', '0:a:0', '-ac', '1', '-ar', String(SAMPLE_RATE)];
    const ffmpeg = spawn('ffmpeg', [...args, '-f', 'f32le', '-'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    let errors = '';
    ffmpeg.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    ffmpeg.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    ffmpeg.on('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === 'ENOENT' ? 'ffmpeg is not installed' : error.message)),
    );
    ffmpeg.on('close', (code) => {
      if (code === 0) resolve(floatSamples(Buffer.concat(output)));
      else reject(new Error(errors.trim().split('\n').pop() || `ffmpeg exited with code ${code}`));
    });
  });
}

/** Little-endian float32 bytes as samples, copied so the array is aligned. */
function floatSamples(bytes: Buffer): Float32Array {
  const samples = new Float32Array(Math.floor(bytes.length / 4));
  new Uint8Array(samples.buffer).set(bytes.subarray(0, samples.length * 4));
  return samples;
}

/** A decoder's complaint, without the server-side path of the file. */
function reasonOf(error: unknown, path: string): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split(path).join(basename(path)).trim();
}
