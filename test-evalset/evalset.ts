import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '@docconv/testing';

export const EVALSET_DIR = resolve(REPO_ROOT, process.env.EVALSET_DIR ?? '../shared/evalset');

export interface ManifestRow {
  path: string;
  format: string;
  role: 'input' | 'reference';
  input: string;
  bytes: number;
  sha256: string;
}

/** The rows of MANIFEST.tsv (see the evalset's README). */
export function readManifest(): ManifestRow[] {
  const [header, ...lines] = readFileSync(join(EVALSET_DIR, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  const columns = header.split('\t');
  return lines.map((line) => {
    const cells = Object.fromEntries(line.split('\t').map((value, i) => [columns[i], value]));
    return { ...cells, bytes: Number(cells.bytes) } as unknown as ManifestRow;
  });
}

export function evalsetPath(relative: string): string {
  return join(EVALSET_DIR, relative);
}
