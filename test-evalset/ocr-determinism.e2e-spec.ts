import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { TestKey } from '../test/support/accounts';
import { upload, waitForJob } from '../test/support/jobs';
import { privateStack, waitForCapabilities } from '../test/support/private-stack';
import { evalsetPath, fundedKey } from './evalset';

/** The engines' Python that scripts/setup.sh installs. */
const PYTHON = join(__dirname, '..', '.venv-engines', 'bin', 'python');

/** Real scans of the dev set: a European text sample and a Korean press release (the Korean path of every engine). */
const SCANS = ['image/tess_eurotext.tif', 'image/noori-1page.jpg'];

const RUNS: [engine: string, model: string][] = [
  ['easyocr', 'basic'],
  ['easyocr', 'premium'],
  ['tesseract', 'basic'],
  ['tesseract', 'premium'],
  ['rapidocr', 'premium'],
];

/** Processes that keep every core busy (a loop each), as other jobs on the machine would. */
function saturate(): ChildProcess[] {
  return Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
}

/**
 * The text of a scanned page depends on the page, the engine and the model only: read on an idle
 * machine and again with every core saturated by other work, through the running worker, each
 * engine and model gives byte-identical Markdown.
 */
describe('the same scans read the same whatever the load', () => {
  const { stack, start } = privateStack('determinism');
  let key: TestKey;
  const files = SCANS.map((relative) => ({
    name: relative.split('/').pop()!,
    content: readFileSync(evalsetPath(relative)),
  }));

  beforeAll(async () => {
    expect(existsSync(PYTHON)).toBe(true); // scripts/setup.sh creates it
    stack.env.ENGINES_PYTHON = PYTHON;
    await start();
    await waitForCapabilities(stack, (c) => c.ocr_engines.includes('easyocr'), 120_000);
    key = await fundedKey(stack.t, 'determinism');
  }, 300_000);

  async function read(engine: string, model: string): Promise<string> {
    const res = await upload(stack.t.http, key.key, files, { ocr_engine: engine, ocr_model: model });
    expect(res.status).toBe(201);
    await stack.t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    const job = await waitForJob(stack.t.http, key.key, res.body.job_id, ['done', 'error'], 600_000);
    expect({ status: job.status, error: job.error_log }).toEqual({ status: 'done', error: null });
    return (await stack.t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set('X-API-Key', key.key).expect(200))
      .text;
  }

  it.each(RUNS)(
    '%s (%s): byte-identical Markdown on an idle machine and on a saturated one',
    async (engine, model) => {
      const idle = await read(engine, model);
      expect(idle).toMatch(/\S{20}/); // a real reading, not an empty one
      const load = saturate();
      let loaded: string;
      try {
        loaded = await read(engine, model);
      } finally {
        for (const child of load) child.kill('SIGKILL');
      }
      expect(loaded).toBe(idle);
    },
    1_300_000,
  );
});
