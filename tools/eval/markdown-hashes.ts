/**
 * `node dist/tools/eval/markdown-hashes.js --format <format> [--set <dir>] [--out <file>]`:
 * the SHA-256 of the Markdown the service makes today from every input of one format in an
 * evaluation set's MANIFEST.tsv, as `{ "<path in the set>": "<hex>" }`. A reader moved onto the
 * document model is checked against these (test-evalset/*-model.e2e-spec.ts): its Markdown must
 * stay byte for byte what it was, or the difference is listed with its reason. Only hashes are
 * kept, never the public documents or their Markdown.
 */
import { detect, inspect } from '@docconv/documents';
import { extractToMarkdown, type OcrOptions } from '@docconv/reading';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_OCR } from './options';

/**
 * OCR fixed to one engine and model with no deadline, so a page that is read by OCR reads the
 * same on every run (a deadline that fires on a busy machine would change the text).
 */
const FIXED_OCR: OcrOptions = { ...DEFAULT_OCR, pageDeadlineSeconds: 3600 };

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

/** The Markdown of one file as the worker makes it for a job's first file (pictures taken out under `images/`). */
export async function workerMarkdown(path: string): Promise<string> {
  const displayName = basename(path);
  const detected = await detect(path, displayName, { media: true });
  if (detected.kind === 'archive') throw new Error(`${path} is an archive; the set's inputs are documents`);
  const inspected = await inspect(path, detected.kind, detected.mime, displayName);
  const { markdown } = await extractToMarkdown(
    {
      path,
      kind: detected.kind,
      mime: detected.mime,
      displayName,
      units: detected.kind === 'pdf' ? inspected.pages : inspected.images,
      ocr: FIXED_OCR,
      imagePrefix: 'images/',
    },
    () => {},
  );
  return markdown;
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
  for (const relative of manifestInputs(set, values.format)) {
    hashes[relative] = markdownHash(await workerMarkdown(join(set, relative)));
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
