/**
 * The scorer's command line: its options (set, model, engine, report path), their defaults and
 * the OCR settings the worker uses when a job names no engine.
 */
import { DEFAULT_OCR_PAGE_DEADLINE_SECONDS } from '@docconv/config';
import type { OcrEngine, OcrModel } from '@docconv/db';
import type { OcrOptions } from '@docconv/reading';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const MODELS: OcrModel[] = ['basic', 'premium'];
const ENGINES: OcrEngine[] = ['tesseract', 'easyocr', 'rapidocr'];
/** What the worker uses when a job names no engine and EasyOCR is not installed. */
export const DEFAULT_OCR: OcrOptions = {
  engine: 'tesseract',
  model: 'premium',
  dpi: 300,
  languages: ['eng', 'kor'],
  settings: { enginesPython: process.env.ENGINES_PYTHON || undefined },
  pageDeadlineSeconds: Number(process.env.OCR_PAGE_DEADLINE_SECONDS) || DEFAULT_OCR_PAGE_DEADLINE_SECONDS,
};

export const USAGE = `Usage: npm run eval -- [--set <dir>] [--model basic|premium] [--engine tesseract|easyocr|rapidocr] [--out <file>]

  --set     evaluation set: <format>/<name>.<ext> inputs with <name>.ref.* references beside them
            (default: ../shared/evalset from the repository root)
  --model   OCR model the run stands for: basic or premium (default: premium)
  --engine  OCR engine the run stands for: tesseract, easyocr or rapidocr (default: the worker's)
  Audio and video are transcribed and scored (WER/CER) with the worker's speech model: faster-whisper in
  ENGINES_PYTHON, or the whisper.cpp model WHISPER_MODEL_PATH names.
  --out     where to write the JSON report (default: test-output/eval-report.json)`;

export class UsageError extends Error {}

export interface Options {
  set: string;
  model: OcrModel;
  engine: OcrEngine | null;
  out: string;
}

/** The repository root: the nearest folder above this file, or else above the working directory, holding docconv's package.json. */
export function repoRoot(): string {
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = resolve(start); ; dir = dirname(dir)) {
      const manifest = join(dir, 'package.json');
      if (existsSync(manifest)) {
        try {
          if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'docconv') return dir;
        } catch {
          // Not ours; keep looking.
        }
      }
      if (dirname(dir) === dir) break;
    }
  }
  return process.cwd();
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function parseOptions(argv: string[], root: string): Options | 'help' {
  let values: { set?: string; model?: string; engine?: string; out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv.filter((a) => a !== '--'),
      options: {
        set: { type: 'string' },
        model: { type: 'string' },
        engine: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help';

  const model = (values.model ?? 'premium') as OcrModel;
  if (!MODELS.includes(model)) {
    throw new UsageError(`--model must be one of ${MODELS.join(', ')}; got "${values.model}".`);
  }
  const engine = (values.engine ?? null) as OcrEngine | null;
  if (engine !== null && !ENGINES.includes(engine)) {
    throw new UsageError(`--engine must be one of ${ENGINES.join(', ')}; got "${values.engine}".`);
  }
  if (engine === 'rapidocr' && model === 'basic') {
    throw new UsageError('--engine rapidocr runs with the premium model only; drop --model basic.');
  }

  const set = values.set !== undefined ? resolve(values.set) : resolve(root, '../shared/evalset');
  if (values.set === '') throw new UsageError('--set needs a folder.');
  if (!isDirectory(set)) {
    throw new UsageError(
      `The evaluation set ${set} is not a folder${values.set === undefined ? ' (the default; pass --set <dir>)' : ''}.`,
    );
  }

  if (values.out === '') throw new UsageError('--out needs a file name.');
  const out = values.out !== undefined ? resolve(values.out) : resolve(root, 'test-output/eval-report.json');
  if (values.out !== undefined) {
    if (isDirectory(out)) throw new UsageError(`--out ${out} is a folder; name a file.`);
    if (!isDirectory(dirname(out))) throw new UsageError(`--out: the folder ${dirname(out)} does not exist.`);
  }
  return { set, model, engine, out };
}
