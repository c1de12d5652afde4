import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CLIENTS, expectSuccess, smokePrograms } from './support/sdk-programs';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The Python, Go and Java SDKs under clients/: generated from openapi.json and committed, each with
 * hand-written helpers (wait for a job by its events, typed problem errors, the structured result
 * parsed, chunks) and a smoke program that runs the whole flow (sign-up, key, upload, confirm,
 * wait, download, structured result, chunks, convert, balance, problem+json errors) against this
 * API, listening on a real port, and the suite's worker.
 */
const LANGUAGES = ['python', 'go', 'java'] as const;

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)))
    .sort();
}

/** The lines every smoke program prints, one per step of the flow, in order. */
function expectTheFlow(output: string, language: string): void {
  const steps = [
    /^signed up smoke-/m,
    /^wrong password refused: 401 invalid_credentials$/m,
    /^created key dcv_/m,
    /^uploaded job [0-9a-f-]{36}: \d+ page\(s\), quote [\d.]+ points$/m,
    /^confirmed: [\d.]+ points left$/m,
    /^job done: (\d+)\/\1 pages$/m,
    /^downloaded Markdown: \d+ characters$/m,
    /^followed \d+ page\(s\), ids \d+\.1…\d+\.\d+$/m,
    /^chunks: \d+ under "Smoke test from (Python|Go|Java)"$/m,
    /^refused with its detail: .*(max_tokens|overlap_tokens).*$/m,
    /^converted to DOCX: \d+ bytes$/m,
    /^balance: [\d.]+ points$/m,
    new RegExp(`^${language} smoke: ok$`, 'm'),
  ];
  let position = 0;
  for (const step of steps) {
    const rest = output.slice(position);
    const found = step.exec(rest);
    expect({ step: String(step), found: found !== null, output }).toMatchObject({ found: true });
    position += found!.index + found![0].length;
  }
}

describe('generated SDKs', () => {
  it('clients/python, clients/go and clients/java are what openapi-generator makes of openapi.json (run `npm run sdks` when this fails)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'docconv-sdks-'));
    try {
      const generated = spawnSync(process.execPath, [join(CLIENTS, 'generate-sdks.mjs'), '--out', out], {
        encoding: 'utf8',
        timeout: 150_000,
      });
      expect(generated.stderr).toBe('');
      expect(generated.status).toBe(0);
      for (const language of LANGUAGES) {
        const fresh = join(out, language);
        const committed = join(CLIENTS, language);
        // The generator's list of what it wrote, so a file it no longer writes fails here too.
        const list = '.openapi-generator/FILES';
        expect({ language, files: readFileSync(join(committed, list), 'utf8') }).toEqual({
          language,
          files: readFileSync(join(fresh, list), 'utf8'),
        });
        for (const file of filesUnder(fresh)) {
          expect({ file: `clients/${language}/${file}`, text: readFileSync(join(committed, file), 'utf8') }).toEqual({
            file: `clients/${language}/${file}`,
            text: readFileSync(join(fresh, file), 'utf8'),
          });
        }
      }
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('SDK smoke programs against the running API', () => {
  let t: TestApp;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    env = { DOCCONV_URL: (await t.app.getUrl()).replace('[::1]', '127.0.0.1') };
  });
  afterAll(() => t.close());

  let smoke: Awaited<ReturnType<typeof smokePrograms>>;
  beforeAll(async () => {
    smoke = await smokePrograms();
  }, 150_000);
  afterAll(() => smoke?.close());

  it.each(['python', 'go', 'java'] as const)(
    '%s: the SDK (built offline) runs the whole flow',
    async (language) => {
      const outcome = await smoke.programs[language](env);
      expectSuccess(outcome);
      expectTheFlow(outcome.stdout, language);
    },
    120_000,
  );
});
