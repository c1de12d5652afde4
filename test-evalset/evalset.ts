import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LedgerService } from '@docconv/billing';
import { REPO_ROOT } from '@docconv/testing';
import { createKey, signup, type TestKey } from '../test/support/accounts';
import type { TestApp } from '../test/support/test-app';

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

/** A new user with plenty of credits and a key without a practical rate limit, for a whole evalset run. */
export async function fundedKey(t: TestApp, tag: string): Promise<TestKey> {
  const user = await signup(t.http, tag);
  const key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
  await t.app.get(LedgerService).post({
    userId: user.userId,
    type: 'grant',
    points: 10_000_000,
    description: 'evalset funds',
    idempotencyKey: `grant:${user.userId}`,
  });
  return key;
}
