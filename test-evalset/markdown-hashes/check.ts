/**
 * The byte-equality check a reader passes before it moves onto the document model: for every
 * input of a format in the evaluation set, the worker's reader builds a document, and the SHA-256
 * of `writeMarkdown(document)` must equal the hash today's reader's Markdown was recorded with
 * (`<format>.json` here, made by tools/eval/markdown-hashes.ts), except for the inputs a spec
 * lists as differences, each with the reason its new Markdown is better.
 */
import { writeMarkdown } from '@docconv/model';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { manifestInputs, markdownHash, workerExtraction } from '../../tools/eval/markdown-hashes';
import { EVALSET_DIR } from '../evalset';

/** An input's path in the set → why its Markdown differs from what was recorded, and is better. */
export type Differences = Readonly<Record<string, string>>;

/** The hashes recorded for `format`, by the input's path in the set. */
export function recordedHashes(format: string): Record<string, string> {
  return JSON.parse(readFileSync(join(__dirname, `${format}.json`), 'utf8')) as Record<string, string>;
}

/**
 * How the model's Markdown of an input compares with the recorded hash: the same bytes; the same
 * but for a newline the writer ends every document with (today's reader ended without one); or
 * different.
 */
export type Verdict = 'same' | 'same but the final newline' | 'different';

/**
 * Runs the worker's reader on every input of `format` and compares the Markdown written from its
 * document with the recorded hash, by the input's path in the set (`not modelled` when the
 * reader built no document).
 */
export async function checkHashes(format: string): Promise<Record<string, Verdict | 'not modelled'>> {
  const recorded = recordedHashes(format);
  const verdicts: Record<string, Verdict | 'not modelled'> = {};
  for (const path of manifestInputs(EVALSET_DIR, format)) {
    const { document } = await workerExtraction(join(EVALSET_DIR, path));
    verdicts[path] = document === undefined ? 'not modelled' : verdict(writeMarkdown(document), recorded[path]);
  }
  return verdicts;
}

function verdict(markdown: string, recorded: string | undefined): Verdict {
  if (markdownHash(markdown) === recorded) return 'same';
  if (markdown.endsWith('\n') && markdownHash(markdown.slice(0, -1)) === recorded) return 'same but the final newline';
  return 'different';
}
