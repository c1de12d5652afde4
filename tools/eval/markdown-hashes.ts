/**
 * `node dist/tools/eval/markdown-hashes.js --format <format> [--set <dir>] [--out <file>]`:
 * the SHA-256 of the Markdown the service makes today from every input of one format in an
 * evaluation set's MANIFEST.tsv, as `{ "<path in the set>": "<hex>" }`. A reader moved onto the
 * document model is checked against these (test-evalset/*-model.e2e-spec.ts): its Markdown must
 * stay byte for byte what it was, or the difference is listed with its reason. Only hashes are
 * kept, never the public documents or their Markdown. Recordings (`audio`, `video`) are
 * transcribed as the worker transcribes them, by the engines' Python (`ENGINES_PYTHON`, else
 * `.venv-engines/bin/python`) with faster-whisper and Whisper base.
 */
import { DomainError } from '@docconv/contracts';
import { detect, inspect, type DetectedFile, type HtmlContent } from '@docconv/documents';
import { extractToMarkdown, type Extraction, type OcrOptions } from '@docconv/reading';
import { writeMarkdown } from '@docconv/model';
import { EngineTranscriber, transcriptDocument, type Transcriber } from '@docconv/transcription';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * OCR fixed so that scanned pages read the same on every run: Tesseract's basic model (the
 * fastest engine in process, deterministic) with no deadline that a busy machine could fire.
 */
const FIXED_OCR: OcrOptions = {
  engine: 'tesseract',
  model: 'basic',
  dpi: 300,
  languages: ['eng', 'kor'],
  settings: { enginesPython: process.env.ENGINES_PYTHON || undefined },
  pageDeadlineSeconds: 3600,
};

/** The set's inputs of `format`, as paths relative to the set, in the manifest's order. */
export function manifestInputs(set: string, format: string): string[] {
  const [header, ...lines] = readFileSync(join(set, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  const columns = header.split('\t');
  const column = (name: string) => columns.indexOf(name);
  return lines
    .map((line) => line.split('\t'))
    .filter((cells) => cells[column('format')] === format && cells[column('role')] === 'input')
    .map((cells) => cells[column('path')]);
}

/** The hex SHA-256 of a Markdown text's UTF-8 bytes. */
export function markdownHash(markdown: string): string {
  return createHash('sha256').update(markdown, 'utf8').digest('hex');
}

/** A file's Markdown hash, or `error: <code>` for a file the reader refuses (a scan OCR reads nothing on). */
export async function hashOf(
  path: string,
  markdown: (path: string) => Promise<string> = workerMarkdown,
): Promise<string> {
  try {
    return markdownHash(await markdown(path));
  } catch (error) {
    if (error instanceof DomainError) return `error: ${error.code}`;
    throw error;
  }
}

/** The Markdown of one file as the worker makes it for a job's first file (pictures taken out under `images/`). */
export async function workerMarkdown(path: string): Promise<string> {
  return (await workerExtraction(path)).markdown;
}

/**
 * One file read as the worker reads a job's first file: its Markdown, and its document when the
 * reader builds one. Scanned pages are read with `ocr` (by default FIXED_OCR).
 */
export async function workerExtraction(path: string, ocr: OcrOptions = FIXED_OCR): Promise<Extraction> {
  return extractDetected(path, await detect(path, basename(path), { media: true }), ocr);
}

/**
 * A file `detect` has named read as in workerExtraction; an archive is refused (the set's inputs
 * are documents). `htmlContent`: what of a web page is read (the upload's default when absent).
 */
export async function extractDetected(
  path: string,
  detected: DetectedFile,
  ocr: OcrOptions,
  htmlContent?: HtmlContent,
): Promise<Extraction> {
  const displayName = basename(path);
  if (detected.kind === 'archive') {
    throw new Error(`${path}: archives are containers, not documents; put the files they hold in the set instead`);
  }
  const inspected = await inspect(path, detected.kind, detected.mime, displayName);
  return extractToMarkdown(
    {
      path,
      kind: detected.kind,
      mime: detected.mime,
      displayName,
      units: detected.kind === 'pdf' ? inspected.pages : inspected.images,
      ocr,
      // As the worker reads a job's first file: pictures taken out and linked, and a PDF read by
      // OCR settled page by page as it is read.
      imagePrefix: 'images/',
      settlePages: detected.kind === 'pdf' && inspected.needsOcr === true,
      htmlContent,
    },
    () => {},
    undefined,
    () => {},
  );
}

/** The evaluation set's folders of recordings: their inputs are transcribed, not extracted. */
export const RECORDING_FORMATS: ReadonlySet<string> = new Set(['audio', 'video']);

/** The speech engine the worker runs, from the engines' Python; close it when done. */
export function workerTranscriber(): Promise<EngineTranscriber> {
  return EngineTranscriber.create({ python: process.env.ENGINES_PYTHON || resolve('.venv-engines/bin/python') });
}

/** One recording transcribed as the worker transcribes a job's file: its document, headed by its name, and the Markdown of it. */
export async function workerTranscript(path: string, transcriber: Transcriber): Promise<Extraction> {
  const document = transcriptDocument(basename(path), await transcriber.transcribe(path));
  return { markdown: writeMarkdown(document), pages: [], document };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== '--'),
    options: { format: { type: 'string' }, set: { type: 'string' }, out: { type: 'string' } },
  });
  if (!values.format) throw new Error('--format is required (a folder of the evaluation set: docx, pdf, …)');
  const set = resolve(values.set ?? '../shared/evalset');
  const out = resolve(values.out ?? `test-evalset/markdown-hashes/${values.format}.json`);
  const hashes: Record<string, string> = {};
  const transcriber = RECORDING_FORMATS.has(values.format) ? await workerTranscriber() : undefined;
  try {
    for (const relative of manifestInputs(set, values.format)) {
      const path = join(set, relative);
      hashes[relative] = transcriber
        ? markdownHash((await workerTranscript(path, transcriber)).markdown)
        : await hashOf(path);
    }
  } finally {
    await transcriber?.close();
  }
  writeFileSync(out, `${JSON.stringify(hashes, null, 2)}\n`);
  console.log(`${Object.keys(hashes).length} hashes written to ${out}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
