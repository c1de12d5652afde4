import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { REPO_ROOT, TEST_OUTPUT } from '../test-stack';
import { ResponseContract, type ContractMismatch } from './response-contract';

/** Where each test file leaves what its responses covered, and where the run's summary goes. */
export const CONTRACT_OUTPUT = join(TEST_OUTPUT, 'contract');

/** One test file's responses: how many were checked, per operation and status, and what disagreed. */
export interface FileCoverage {
  testPath: string;
  /** Responses of documented-or-not API routes, each checked against the document. */
  validated: number;
  /** Requests no route matched (Fastify's 404): they belong to no operation. */
  unmatched: number;
  /** Routes outside the operations: the console, the operator's endpoints, the document itself. */
  outside: number;
  /** Routes of a test's own probe controllers. */
  probes: number;
  /** Time spent recording and checking, document loading and schema compiling included. */
  milliseconds: number;
  /** `METHOD path` → status → responses. */
  operations: Record<string, Record<string, number>>;
  mismatches: ContractMismatch[];
}

export interface ContractSummary {
  document: string;
  files: number;
  validated: number;
  unmatched: number;
  outside: number;
  probes: number;
  /** Recording and checking time summed over the files (they run in parallel workers). */
  milliseconds: number;
  operations: { total: number; covered: number; never_called: string[] };
  /** `METHOD path` → status → responses, for every operation the suite called. */
  calls: Record<string, Record<string, number>>;
  mismatch_count: number;
  /** `METHOD path status` → each distinct disagreement, how often, and one address that showed it. */
  mismatches: Record<string, { issue: string; count: number; example: ContractMismatch }[]>;
}

/** Empties the folder, so that a run adds up only its own files. */
export function resetContractOutput(): void {
  rmSync(CONTRACT_OUTPUT, { recursive: true, force: true });
  mkdirSync(CONTRACT_OUTPUT, { recursive: true });
}

export function writeFileCoverage(coverage: FileCoverage): void {
  mkdirSync(CONTRACT_OUTPUT, { recursive: true });
  const name = `${basename(coverage.testPath).replace(/\W+/g, '-')}-${process.pid}-${Date.now()}.json`;
  writeFileSync(join(CONTRACT_OUTPUT, name), JSON.stringify(coverage));
}

/**
 * Adds up the files of the run against the committed document, writes `summary.json` beside
 * them and returns the line to print; undefined when no test file recorded a response.
 */
export function summariseContract(documentPath = join(REPO_ROOT, 'openapi.json')): string | undefined {
  let names: string[];
  try {
    names = readdirSync(CONTRACT_OUTPUT).filter((name) => name.endsWith('.json') && name !== 'summary.json');
  } catch {
    return undefined;
  }
  if (names.length === 0) return undefined;
  const files = names.map((name) => JSON.parse(readFileSync(join(CONTRACT_OUTPUT, name), 'utf8')) as FileCoverage);
  const operations = new ResponseContract(JSON.parse(readFileSync(documentPath, 'utf8')) as object).operations();

  const calls: ContractSummary['calls'] = {};
  for (const file of files) {
    for (const [operation, statuses] of Object.entries(file.operations)) {
      const into = (calls[operation] ??= {});
      for (const [status, count] of Object.entries(statuses)) into[status] = (into[status] ?? 0) + count;
    }
  }
  const mismatches: ContractSummary['mismatches'] = {};
  const all = files.flatMap((file) => file.mismatches);
  for (const mismatch of all) {
    const group = (mismatches[`${mismatch.operation} ${mismatch.status}`] ??= []);
    const issue = issueOf(mismatch);
    const known = group.find((entry) => entry.issue === issue);
    if (known) known.count++;
    else group.push({ issue, count: 1, example: mismatch });
  }
  const sum = (key: 'validated' | 'unmatched' | 'outside' | 'probes' | 'milliseconds') =>
    files.reduce((n, file) => n + file[key], 0);
  const neverCalled = operations.filter((operation) => !(operation in calls));
  const summary: ContractSummary = {
    document: relative(REPO_ROOT, documentPath),
    files: files.length,
    validated: sum('validated'),
    unmatched: sum('unmatched'),
    outside: sum('outside'),
    probes: sum('probes'),
    milliseconds: Math.round(sum('milliseconds')),
    operations: {
      total: operations.length,
      covered: operations.length - neverCalled.length,
      never_called: neverCalled,
    },
    calls: Object.fromEntries(Object.entries(calls).sort(([a], [b]) => a.localeCompare(b))),
    mismatch_count: all.length,
    mismatches: Object.fromEntries(Object.entries(mismatches).sort(([a], [b]) => a.localeCompare(b))),
  };
  writeFileSync(join(CONTRACT_OUTPUT, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);

  return (
    `contract: ${summary.validated} responses validated against ${summary.document}` +
    ` (${summary.unmatched} unrouted, ${summary.outside + summary.probes} outside the API not checked),` +
    ` ${summary.operations.covered}/${summary.operations.total} operations covered,` +
    ` ${summary.mismatch_count} mismatches, ${(summary.milliseconds / 1000).toFixed(1)} s checking; never called: ${neverCalled.length === 0 ? 'none' : neverCalled.join(', ')}` +
    ` (${relative(REPO_ROOT, join(CONTRACT_OUTPUT, 'summary.json'))})`
  );
}

/** What a mismatch says, without what differs from one response to the next (ids, array positions). */
function issueOf(mismatch: ContractMismatch): string {
  const errors = [...new Set(mismatch.errors.map((error) => error.replace(/\/\d+(?=\/|\s)/g, '/*')))];
  return [`${mismatch.contentType ?? '(no content-type)'}: ${mismatch.reason}`, ...errors].join('\n  ');
}
