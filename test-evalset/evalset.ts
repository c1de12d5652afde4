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

/**
 * Evalset folders whose formats the service accepts today, and the `file_type` each previews as
 * (word-processing formats count as docx, presentations as pptx, spreadsheets as xlsx, formats
 * the contract has no value for as mixed).
 */
export const ACCEPTED_FORMATS: Record<string, string> = {
  pdf: 'pdf',
  docx: 'docx',
  pptx: 'pptx',
  xlsx: 'xlsx',
  hwp: 'hwp',
  hwpx: 'hwpx',
  image: 'image',
  audio: 'audio',
  video: 'video',
  html: 'mixed',
  csv: 'xlsx',
  epub: 'mixed',
  odt: 'docx',
  ods: 'xlsx',
  odp: 'pptx',
  doc: 'docx',
  xls: 'xlsx',
  ppt: 'pptx',
  rtf: 'docx',
  eml: 'mixed',
  msg: 'mixed',
};

/** Formats whose files carry other files (an e-mail's attachments), each converted under its own heading. */
export const CONTAINER_FORMATS = new Set(['eml', 'msg']);

/**
 * The part of a job's Markdown that is the file itself, without the sections of the files it
 * carried: an e-mail's attachments follow it under `## <message>/<attachment>` headings.
 */
export function ownSection(markdown: string, name: string): string {
  const next = markdown.indexOf(`\n## ${name}/`);
  return next < 0 ? markdown : markdown.slice(0, next);
}

/** The format folder of an evalset path (`pdf/x.pdf` → `pdf`). */
export function formatOf(relative: string): string {
  return relative.split('/')[0];
}

/** The input rows of the manifest, documents (not audio or video) that the service accepts. */
export function acceptedDocuments(): ManifestRow[] {
  return readManifest().filter(
    (r) => r.role === 'input' && r.format in ACCEPTED_FORMATS && !['audio', 'video'].includes(r.format),
  );
}

/** The input rows of formats the service does not accept yet (their folders are in the set to measure converters early). */
export function notYetAccepted(): ManifestRow[] {
  return readManifest().filter((r) => r.role === 'input' && !(r.format in ACCEPTED_FORMATS));
}
