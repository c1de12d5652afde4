import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stopProcess } from '@docconv/testing';
import { Client } from 'pg';
import request from 'supertest';
import { createKey, signup, type TestKey } from '../test/support/accounts';
import { hostileInputs, type HostileInput } from '../test/support/hostile';
import { upload } from '../test/support/jobs';
import { isGone, spawnApi, type ApiProcess } from './support/api-process';
import { inParallel } from './support/concurrency';
import { filesLeftUnder } from './support/disk';
import { formatHistogram, histogram, ms, printFigures } from './support/figures';

/** Uploads in flight at once: enough to keep the API busy on two cores. */
const CONCURRENCY = 4;

/** One hostile upload and what the API answered. */
interface Outcome {
  label: string;
  name: string;
  status: number | 'network';
  problemJson: boolean;
}

/**
 * The generated hostile inputs and three variations of each: with trailing bytes, with
 * a few more bits flipped, and under a renamed, upper-cased name. Seeded, so a failing
 * input can be made again.
 */
function withVariations(inputs: HostileInput[]): HostileInput[] {
  let state = 20261123;
  const next = (): number => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const trailing = (input: HostileInput): HostileInput => ({
    label: `${input.label} + trailing bytes`,
    name: input.name,
    content: Buffer.concat([input.content, randomBytesFrom(next, 1 + Math.floor(next() * 512))]),
  });
  const flipped = (input: HostileInput): HostileInput => {
    const content = Buffer.from(input.content);
    for (let bit = 0; bit < 1 + Math.floor(next() * 8) && content.length > 0; bit++) {
      content[Math.floor(next() * content.length)] ^= 1 << Math.floor(next() * 8);
    }
    return { label: `${input.label} + flipped bits`, name: input.name, content };
  };
  const renamed = (input: HostileInput): HostileInput => ({
    label: `${input.label} + renamed`,
    name: `Übersicht – ${input.name.toUpperCase()}`,
    content: input.content,
  });
  return inputs.flatMap((input) => [input, trailing(input), flipped(input), renamed(input)]);
}

function randomBytesFrom(next: () => number, length: number): Buffer {
  return Buffer.from(Array.from({ length }, () => Math.floor(next() * 256)));
}

/**
 * A thousand and more malformed, malicious and misleading uploads against the API running as
 * its own process: every one is answered with 2xx or a 4xx problem, the process that answers
 * the first answers the last, and no file lands outside the storage root.
 */
describe('hostile uploads at volume', () => {
  let api: ApiProcess;
  let apiTmp: string;
  let key: TestKey;

  beforeAll(async () => {
    // A scratch folder of its own, so what the API leaves there (or escapes into) is its doing alone.
    apiTmp = await mkdtemp(join(tmpdir(), 'docconv-reliability-api-tmp-'));
    api = await spawnApi({ ...process.env, SCRATCH_DIR: apiTmp, LOG_LEVEL: 'error' }, 'api-hostile');
    const http = request(api.url);
    const user = await signup(http, 'hostile');
    key = await createKey(http, user, { rate_limit_rpm: 100_000 });
  }, 60_000);

  afterAll(async () => {
    if (api) await stopProcess(api.child);
    if (apiTmp) await rm(apiTmp, { recursive: true, force: true });
  });

  it('1,000+ hostile uploads: no 5xx, the same API process answers throughout, nothing lands outside storage', async () => {
    const tag = randomBytes(4).toString('hex');
    const inputs = withVariations(await hostileInputs(tag));
    expect(inputs.length).toBeGreaterThanOrEqual(1000);
    const http = request(api.url);
    const pid = api.child.pid;

    const started = Date.now();
    const outcomes = await inParallel(inputs, CONCURRENCY, async (input): Promise<Outcome> => {
      const base = { label: input.label, name: input.name.slice(0, 60) };
      try {
        const res = await upload(http, key.key, [{ name: input.name, content: input.content }]);
        return { ...base, status: res.status, problemJson: /problem\+json/.test(res.headers['content-type'] ?? '') };
      } catch {
        return { ...base, status: 'network', problemJson: false };
      }
    });
    const elapsed = Date.now() - started;
    const liveness = await http.get('/api/v1/health');

    printFigures(`Hostile uploads: ${inputs.length} inputs, ${CONCURRENCY} at a time`, [
      ['statuses', formatHistogram(histogram(outcomes.map((o) => o.status)))],
      ['wall time', ms(elapsed)],
      ['uploads per second', ((inputs.length / elapsed) * 1000).toFixed(1)],
      ['API process', `pid ${pid}, ${isGone(api.child) ? 'gone' : 'still running'}`],
    ]);

    // Every upload was answered, and never with a fault of ours.
    expect(outcomes.filter((o) => o.status === 'network' || o.status >= 500 || o.status < 200)).toEqual([]);
    expect(outcomes.filter((o) => (o.status as number) >= 400 && !o.problemJson)).toEqual([]);
    // The process that answered the first upload answers after the last: it never exited or restarted.
    expect(isGone(api.child)).toBe(false);
    expect(api.child.pid).toBe(pid);
    expect(liveness.status).toBe(200);
    // The escapes each had their own cases, all refused.
    for (const label of ['traversal', 'deep traversal', 'absolute', 'tar traversal', 'tar absolute', 'zip symlink']) {
      expect({ label, statuses: outcomes.filter((o) => o.label === label).map((o) => o.status) }).toEqual({
        label,
        statuses: [400],
      });
    }

    await expectNothingOutsideStorage(tag);
  });

  /**
   * No file the escaping entries aimed at exists; the storage root holds only its own folders,
   * and inputs only of jobs that exist; the API's scratch folder holds no file once requests end.
   */
  async function expectNothingOutsideStorage(tag: string): Promise<void> {
    const storageRoot = process.env.STORAGE_DIR!;
    const escapee = `docconv-escape-${tag}.md`;
    for (const dir of [apiTmp, dirname(apiTmp), '/tmp', process.cwd(), storageRoot, dirname(storageRoot)]) {
      expect({ dir, escaped: existsSync(join(dir, escapee)) }).toEqual({ dir, escaped: false });
    }
    expect((await readdir(storageRoot)).filter((n) => !['inputs', 'results', 'health'].includes(n))).toEqual([]);
    const stored = await readdir(join(storageRoot, 'inputs'));
    expect(stored.filter((id) => !/^[0-9a-f-]{36}$/.test(id))).toEqual([]);
    const db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    try {
      const known = await db.query<{ id: string }>('SELECT id FROM jobs WHERE id = ANY($1::uuid[])', [stored]);
      expect(known.rowCount).toBe(stored.length);
    } finally {
      await db.end();
    }
    expect(await filesLeftUnder(apiTmp)).toEqual({ files: 0, bytes: 0 });
  }
});
