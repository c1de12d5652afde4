import { DomainError } from '@docconv/contracts';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { characterConfidence, ReadingTimeout, type GreyImage, type OcrLine, type OcrRequest } from './engine';
import { tessdataFolder } from './tessdata';
import { parseTsv } from './tesseract-tsv';

/**
 * The native `tesseract` program from Debian: one child process per reading, one OpenMP thread,
 * the image on stdin as PGM, killed when the reading's signal aborts.
 */

/** A binary PGM (P5) of a greyscale image. */
export function toPgm(image: GreyImage): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${image.width} ${image.height}\n255\n`), image.data]);
}

let native: Promise<boolean> | undefined;

/** Whether the `tesseract` program runs on this machine (asked once). */
export function nativeAvailable(): Promise<boolean> {
  native ??= new Promise((resolve) => {
    const child = spawn('tesseract', ['--version'], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
  return native;
}

/**
 * One reading by the native program, which writes both its TSV (word boxes and confidences) and
 * its plain text, whose spaces are Tesseract's own judgement of where words end (see parseTsv).
 */
export async function readNative(
  pgm: Buffer,
  psm: number,
  model: OcrRequest['model'],
  languages: string[],
  signal?: AbortSignal,
): Promise<OcrLine[]> {
  const folder = await mkdtemp(join(tmpdir(), 'docconv-tesseract-'));
  try {
    const base = join(folder, 'page');
    const args = ['stdin', base, '-l', languages.join('+'), '--psm', String(psm)];
    if (model === 'premium') args.push('--tessdata-dir', await tessdataFolder('best', 'plain'));
    args.push('-c', 'preserve_interword_spaces=1', '-c', 'tessedit_create_tsv=1', '-c', 'tessedit_create_txt=1');
    await run(args, pgm, signal);
    const [tsv, text] = await Promise.all([readFile(`${base}.tsv`, 'utf8'), readFile(`${base}.txt`, 'utf8')]);
    return parseTsv(tsv, text);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * How confidently the native program's fast model for one language reads an image as a block of
 * text (page segmentation mode 6): its words' characters' mean confidence, and how many
 * characters it read. Used to tell a page's way up and language (orientation.ts).
 */
export async function probeConfidence(
  image: GreyImage,
  language: string,
  signal?: AbortSignal,
): Promise<{ confidence: number; characters: number }> {
  const tsv = await run(
    ['stdin', 'stdout', '-l', language, '--psm', '6', '-c', 'tessedit_create_tsv=1'],
    toPgm(image),
    signal,
  );
  const words = parseTsv(tsv).flatMap((line) => line.words);
  return {
    confidence: characterConfidence(words),
    characters: words.reduce((n, w) => n + [...w.text].length, 0),
  };
}

/** Runs the native program on `input`; once `signal` aborts, the program is killed and the run rejects with ReadingTimeout. */
function run(args: string[], input: Buffer, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ReadingTimeout());
    const child = spawn('tesseract', args, { env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
    let stopped = false;
    const stop = () => {
      stopped = true;
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', stop, { once: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (error: NodeJS.ErrnoException) => {
      signal?.removeEventListener('abort', stop);
      reject(
        error.code === 'ENOENT'
          ? new DomainError('engine_unavailable', 'The tesseract program is not installed on this worker.')
          : error,
      );
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', stop);
      if (stopped) reject(new ReadingTimeout());
      else if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else
        reject(new Error(`tesseract exited with ${code}: ${Buffer.concat(err).toString('utf8').trim().slice(0, 200)}`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
