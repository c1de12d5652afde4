import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, stopProcess } from '@docconv/testing';
import request from 'supertest';
import { createKey, signup, type TestKey, type TestUser } from '../test/support/accounts';
import { upload, waitForJob } from '../test/support/jobs';
import { startStripeMock, type StripeMock } from '../test/support/stripe';
import { isGone, spawnApi, type ApiProcess } from './support/api-process';
import { ms, printFigures } from './support/figures';

/** Schemathesis, from the pinned requirements `scripts/setup-tests.sh` installs into `.venv`. */
const SCHEMATHESIS = join(REPO_ROOT, '.venv', 'bin', 'schemathesis');
const EXAMPLES_PER_OPERATION = 40;
const MAX_SECONDS_PER_PASS = 90;

interface Pass {
  name: string;
  cases: number;
  serverErrors: number;
  exitCode: number | null;
  ms: number;
  output: string;
}

/** One schemathesis pass over every operation of the API's own OpenAPI document, checking that no answer is a 5xx. */
function fuzz(
  name: string,
  baseUrl: string,
  headers: string[],
  extra: string[],
  env: NodeJS.ProcessEnv,
): Promise<Pass> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const args = [
      '--no-color',
      ...extra,
      'run',
      `${baseUrl}/api/v1/openapi.json`,
      '--url',
      baseUrl,
      '--checks',
      'not_a_server_error',
      '--phases',
      'examples,coverage,fuzzing',
      '--max-examples',
      String(EXAMPLES_PER_OPERATION),
      '--max-time',
      String(MAX_SECONDS_PER_PASS),
      '--seed',
      '20261125',
      // One worker: with two, schemathesis's threads parse lambda sources concurrently and
      // CPython 3.11 (before 3.11.8) can fail with "AST constructor recursion depth mismatch",
      // a crash of the fuzzer that says nothing about the API.
      '--workers',
      '1',
      '--generation-allow-x00',
      'true',
      '--request-timeout',
      '30',
      ...headers.flatMap((h) => ['--header', h]),
    ];
    const child = spawn(SCHEMATHESIS, args, {
      cwd: tmpdir(), // its example cache lands there, not in the clone
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      resolve({
        name,
        cases: Number(/(\d+) generated/.exec(output)?.[1] ?? 0),
        serverErrors: Number(/Server error: (\d+)/.exec(output)?.[1] ?? 0),
        exitCode: code,
        ms: Date.now() - started,
        output,
      }),
    );
  });
}

/**
 * A schema-driven fuzz run over every JSON endpoint of the OpenAPI document, against the API as
 * its own process: generated bodies, queries and path parameters of wrong types, nulls,
 * extremes, unicode and NUL characters, twice (ids fuzzed, then ids of a real job and key).
 * No answer may be a 5xx, and the process that answers the first request answers the last.
 */
describe('fuzzing every operation of the OpenAPI document', () => {
  let api: ApiProcess;
  let user: TestUser;
  let key: TestKey;
  let stripeMock: StripeMock;

  beforeAll(async () => {
    if (!existsSync(SCHEMATHESIS)) throw new Error(`${SCHEMATHESIS} is missing: run ./scripts/setup-tests.sh`);
    // Payments configured (against stripe-mock, with a public URL to return to), so a valid checkout is answered, not refused with a 503.
    stripeMock = await startStripeMock();
    api = await spawnApi(
      { ...process.env, ...stripeMock.env, PUBLIC_BASE_URL: 'https://docconv.example.com', LOG_LEVEL: 'fatal' },
      'api-fuzz',
    );
    const http = request(api.url);
    user = await signup(http, 'fuzz');
    key = await createKey(http, user, { rate_limit_rpm: 100_000 });
  }, 60_000);

  afterAll(async () => {
    if (api) await stopProcess(api.child);
    await stripeMock?.close();
  });

  it('answers every generated request with a 2xx, 3xx or 4xx', async () => {
    const http = request(api.url);
    const job = await upload(http, key.key, [{ name: 'fuzz.md', content: '# Fuzz\n\nA finished job.\n' }]);
    await http.post(`/api/v1/jobs/${job.body.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    await waitForJob(http, key.key, job.body.job_id as string, ['done']);
    const spare = await createKey(http, user, { name: 'to be rotated and deleted by the fuzzer' });
    const pid = api.child.pid;
    const headers = [`X-API-Key: ${key.key}`, `Authorization: Bearer ${user.jwt}`];

    const passes = [
      await fuzz('ids fuzzed', api.url, headers, [], {}),
      await fuzz(
        'ids of a real job and key',
        api.url,
        headers,
        ['--config-file', join(__dirname, 'support', 'schemathesis-known-ids.toml')],
        { DOCCONV_FUZZ_JOB_ID: job.body.job_id as string, DOCCONV_FUZZ_KEY_ID: spare.id },
      ),
    ];
    const health = await http.get('/api/v1/health');
    printFigures(`Schema-driven fuzzing (schemathesis, ${EXAMPLES_PER_OPERATION} examples per operation and phase)`, [
      ...passes.map((p): [string, string] => [
        p.name,
        `${p.cases} requests, ${p.serverErrors} × 5xx, exit ${p.exitCode}, ${ms(p.ms)}`,
      ]),
      ['API process', `pid ${pid}, ${isGone(api.child) ? 'gone' : 'still running'}`],
    ]);
    for (const pass of passes) {
      if (pass.serverErrors > 0 || pass.exitCode !== 0) process.stdout.write(pass.output);
      expect({ pass: pass.name, serverErrors: pass.serverErrors, exitCode: pass.exitCode }).toEqual({
        pass: pass.name,
        serverErrors: 0,
        exitCode: 0,
      });
      expect(pass.cases).toBeGreaterThan(500);
    }
    expect(isGone(api.child)).toBe(false);
    expect(api.child.pid).toBe(pid);
    expect(health.status).toBe(200);
  }, 420_000);
});
