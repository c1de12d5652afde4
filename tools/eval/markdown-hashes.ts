/**
 * `node dist/tools/eval/markdown-hashes.js <format> [--set <dir>]`: the SHA-256 of the Markdown
 * today's reader makes of every dev-set input of one format (MANIFEST.tsv rows with role=input),
 * written to test-evalset/markdown-hashes/<format>.json. A reader ported to the document model is
 * checked against these hashes byte for byte (test-evalset/*-markdown.e2e-spec.ts); only hashes are
 * kept, never the public documents or their Markdown.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { DomainError } from '@docconv/contracts';
import { detect, extractToMarkdown, inspect, type Extraction, type OcrOptions } from '@docconv/documents';

/**
 * OCR fixed so that scanned pages read the same on every run: Tesseract's basic model (the
 * fastest engine in process, deterministic), at the worker's resolution and languages.
 */
export const HASH_OCR: OcrOptions = {
  engine: 'tesseract',
  model: 'basic',
  dpi: 300,
  languages: ['eng', 'kor'],
  settings: {},
  pageDeadlineSeconds: 600,
};

/** The relative paths of a format's dev-set inputs, in manifest order. */
export function manifestInputs(set: string, format: string): string[] {
  const [header, ...rows] = readFileSync(join(set, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  const columns = header.split('\t');
  const at = (name: string) => columns.indexOf(name);
  return rows
    .map((row) => row.split('\t'))
    .filter((cells) => cells[at('role')] === 'input' && cells[at('format')] === format)
    .map((cells) => cells[at('path')]);
}

/** One input read as the worker reads a job's first file (pictures taken out and linked), OCR fixed. */
export async function readInput(path: string): Promise<Extraction> {
  const displayName = basename(path);
  const detected = await detect(path, displayName, { media: true });
  if (detected.kind === 'archive') throw new Error(`${displayName} is an archive, not a document`);
  const inspected = await inspect(path, detected.kind, detected.mime, displayName);
  return extractToMarkdown(
    {
      path,
      kind: detected.kind,
      mime: detected.mime,
      displayName,
      units: detected.kind === 'pdf' ? inspected.pages : inspected.images,
      ocr: HASH_OCR,
      imagePrefix: 'images/',
    },
    () => {},
  );
}

/** A file's Markdown hash, or `error: <code>` for a file the reader refuses (a scan OCR reads nothing on). */
export async function hashOf(
  path: string,
  markdown = async (p: string) => (await readInput(p)).markdown,
): Promise<string> {
  try {
    return sha256(await markdown(path));
  } catch (error) {
    if (error instanceof DomainError) return `error: ${error.code}`;
    throw error;
  }
}

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

async function main(): Promise<void> {
  const [format, ...rest] = process.argv.slice(2).filter((a) => a !== '--');
  if (!format) throw new Error('usage: markdown-hashes <format> [--set <dir>]');
  const root = resolve(__dirname, '..', '..', '..');
  const setAt = rest.indexOf('--set');
  const set = resolve(setAt >= 0 ? rest[setAt + 1] : join(root, '..', 'shared', 'evalset'));
  const hashes: Record<string, string> = {};
  for (const relative of manifestInputs(set, format)) {
    const started = Date.now();
    hashes[relative] = await hashOf(join(set, relative));
    process.stderr.write(`${relative} ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
  }
  const out = join(root, 'test-evalset', 'markdown-hashes', `${format}.json`);
  if (!existsSync(dirname(out))) await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(hashes, null, 2)}\n`);
  process.stderr.write(`${Object.keys(hashes).length} hashes written to ${out}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
