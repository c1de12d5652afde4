import { DomainError } from '@docconv/contracts';
import { spawn } from 'node:child_process';
import sharp from 'sharp';

export interface OcrPage {
  text: string;
}

/**
 * Native Tesseract as a child process: the image goes in on stdin as a greyscale PGM (far
 * faster for Tesseract than PNG), with one OpenMP thread, page segmentation mode 3 and
 * interword spaces preserved (Korean would otherwise get a space between syllables).
 */
export async function tesseractRecognize(
  image: Buffer | string,
  frame: number,
  languages = 'eng+kor',
): Promise<OcrPage> {
  const { data, info } = await sharp(image, { page: frame, limitInputPixels: 268_402_689 })
    .rotate() // honour EXIF orientation
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pgm = Buffer.concat([Buffer.from(`P5\n${info.width} ${info.height}\n255\n`), data]);
  const text = await run(['stdin', 'stdout', '-l', languages, '--psm', '3', '-c', 'preserve_interword_spaces=1'], pgm);
  return { text };
}

function run(args: string[], input: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('tesseract', args, { env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new DomainError('engine_unavailable', 'The tesseract program is not installed on this worker.')
          : error,
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else
        reject(new Error(`tesseract exited with ${code}: ${Buffer.concat(err).toString('utf8').trim().slice(0, 200)}`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
