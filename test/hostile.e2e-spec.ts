import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createKey, signup, type TestKey } from './support/accounts';
import { hostileInputs } from './support/hostile';
import { upload } from './support/jobs';
import { createTestApp, type TestApp } from './support/test-app';

describe('hostile uploads', () => {
  let t: TestApp;
  let key: TestKey;
  // This API gets a storage root of its own, so what is left in it after the hostile uploads
  // was left by them, not by another suite's upload in flight.
  let privateRoot: string;
  beforeAll(async () => {
    privateRoot = await mkdtemp(join(tmpdir(), 'docconv-hostile-'));
    t = await createTestApp({}, { ...process.env, STORAGE_DIR: join(privateRoot, 'storage') });
    const user = await signup(t.http, 'hostile');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
  });
  afterAll(async () => {
    await t.close();
    await rm(privateRoot, { recursive: true, force: true });
  });

  it('300+ hostile inputs: only 2xx or 4xx, the API stays up, nothing escapes, nothing is left behind', async () => {
    const tag = randomBytes(4).toString('hex');
    const inputs = await hostileInputs(tag);
    expect(inputs.length).toBeGreaterThanOrEqual(300);
    const leftovers = async () => (await readdir(tmpdir())).filter((n) => /^docconv-(upload|intake)-/.test(n));
    const before = new Set(await leftovers());

    const outcomes: { label: string; name: string; status: number }[] = [];
    for (const input of inputs) {
      const res = await upload(t.http, key.key, [{ name: input.name, content: input.content }]);
      outcomes.push({ label: input.label, name: input.name.slice(0, 60), status: res.status });
      if (input.label === 'ten million pages') expect(res.body.total_pages).toBe(1);
      if (res.status >= 400) expect(res.headers['content-type']).toMatch(/problem\+json/);
    }
    expect(outcomes.filter((o) => o.status >= 500 || o.status < 200)).toEqual([]);
    const counts = outcomes.reduce<Record<number, number>>(
      (acc, o) => ({ ...acc, [o.status]: (acc[o.status] ?? 0) + 1 }),
      {},
    );
    console.log(`hostile uploads: ${inputs.length} inputs, statuses ${JSON.stringify(counts)}`);

    const byLabel = (label: string) => outcomes.filter((o) => o.label === label).map((o) => o.status);
    // pdf.js counts the pages that exist, not what the page tree claims: one page, priced as one.
    expect(byLabel('ten million pages')).toEqual([201]);
    expect(byLabel('zip bomb')).toEqual([400]);
    expect(byLabel('too many files')).toEqual([413]);
    for (const label of [
      'traversal',
      'absolute',
      'zip symlink',
      'tar symlink',
      'tar char device',
      'nested three deep',
    ]) {
      expect({ label, statuses: byLabel(label) }).toEqual({ label, statuses: [400] });
    }

    await t.http.get('/api/v1/health').expect(200);

    // Nothing landed where the escaping entries pointed.
    const storageRoot = t.config.storage.localDir;
    for (const dir of [tmpdir(), resolve(tmpdir(), '..'), process.cwd(), storageRoot, resolve(storageRoot, '..')]) {
      expect(existsSync(join(dir, `docconv-escape-${tag}.md`))).toBe(false);
    }
    // The storage root holds only its own folders, and inputs only of jobs that exist.
    expect((await readdir(storageRoot)).filter((n) => !['inputs', 'results', 'health'].includes(n))).toEqual([]);
    const stored = await readdir(join(storageRoot, 'inputs'));
    const known = await t.app
      .get(DataSource)
      .query<{ id: string }[]>('SELECT id FROM jobs WHERE id = ANY($1)', [stored]);
    expect(stored.length).toBe(counts[201]);
    expect(known.length).toBe(stored.length);

    // No temporary folder outlives its request (others' may come and go while tests run in parallel).
    const deadline = Date.now() + 10_000;
    let left = (await leftovers()).filter((n) => !before.has(n));
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      const now = new Set(await leftovers());
      left = left.filter((n) => now.has(n));
    }
    expect(left).toEqual([]);
  });
});
