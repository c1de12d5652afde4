import { Sweeper } from '@docconv/lifecycle';
import { stopProcess, TEST_OUTPUT } from '@docconv/testing';
import type { ChildProcess } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createKey, signup, type TestKey } from './support/accounts';
import { makePdf } from './support/fixtures';
import { upload, waitForJob } from './support/jobs';
import { privateStack } from './support/private-stack';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The lines matching `pattern` in the log of the worker this test process started last under
 * `logName` (test-output/, written as it runs), once there are `count` of them (30 s at most).
 */
async function logLines(logName: string, since: number, pattern: RegExp, count: number): Promise<string[]> {
  const prefix = `${logName}-${process.pid}-`;
  const deadline = Date.now() + 30_000;
  let lines: string[] = [];
  while (Date.now() < deadline) {
    const logs = (await readdir(TEST_OUTPUT))
      .filter((name) => name.startsWith(prefix) && Number(name.slice(prefix.length, -'.log'.length)) >= since)
      .sort();
    const newest = logs.at(-1);
    if (newest) {
      lines = (await readFile(join(TEST_OUTPUT, newest), 'utf8')).split('\n').filter((line) => pattern.test(line));
      if (lines.length >= count) return lines;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return lines;
}

const THREAD_READY = /Extraction thread ready, pdf\.js loaded in \d+\.\d\d s/;

describe('worker lifecycle', () => {
  const { stack, start } = privateStack('life');
  let t: TestApp;
  let key: TestKey;
  let worker: ChildProcess | undefined;
  beforeAll(() => ({ t, key } = stack));

  it('starts its extraction threads, pdf.js loaded, before any job arrives, and keeps them', async () => {
    const since = Date.now();
    const warm = await start({ WORKER_CONCURRENCY: '2', LOG_LEVEL: 'info' });
    // No job is sent: each of the two threads says it is ready on its own.
    try {
      const ready = await logLines('worker-life', since, THREAD_READY, 2);
      expect(ready).toHaveLength(2);
      await convertPdfs(3);
      await new Promise((r) => setTimeout(r, 2_000)); // time enough for a replaced thread to say it is ready
      expect(await logLines('worker-life', since, THREAD_READY, 2)).toHaveLength(2);
    } finally {
      expect((await stopProcess(warm, 'SIGTERM')).forced).toBe(false);
    }
  });

  it('replaces a thread whose heap after a file passes a quarter of its cap, at once', async () => {
    const since = Date.now();
    // 128 MB: pdf.js and the readers hold some 30 MB between files, and a 400-page file's reading
    // (its Markdown still in hand when the heap is weighed) takes the heap past a quarter of it.
    const small = await start({ WORKER_THREAD_MEMORY_MB: '128', LOG_LEVEL: 'info' });
    try {
      await convertPdfs(2, 400);
      // The first thread, then one started in place of each thread that read a file, with no file waiting.
      expect(await logLines('worker-life', since, THREAD_READY, 3)).toHaveLength(3);
    } finally {
      expect((await stopProcess(small, 'SIGTERM')).forced).toBe(false);
    }
  });

  /** Converts `count` PDFs of `pages` pages, one job each, and expects each done. */
  async function convertPdfs(count: number, pages = 1): Promise<void> {
    for (let n = 1; n <= count; n++) {
      const pdf = await makePdf(
        Array.from({ length: pages }, (_, i) => `Page ${i + 1} of file ${n} for the extraction threads.`),
      );
      const job = (await upload(t.http, key.key, [{ name: `file-${n}.pdf`, content: pdf }])).body;
      await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
      expect(await waitForJob(t.http, key.key, job.job_id)).toMatchObject({ status: 'done' });
    }
  }

  it('takes jobs only from the queues WORKER_QUEUES names, each job on the queue of the pool its files need', async () => {
    const others = await start({ WORKER_QUEUES: 'speech,conversions,maintenance,webhooks' });
    const pools: ChildProcess[] = [];
    try {
      const confirmed = async (name: string, content: Buffer | string) => {
        const job = (await upload(t.http, key.key, [{ name, content }])).body;
        await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
        return job.job_id as string;
      };
      const statusOf = async (id: string) =>
        (await t.http.get(`/api/v1/jobs/${id}`).set('X-API-Key', key.key)).body.status as string;
      const notes = await confirmed('queued.md', '# for the parse pool\n');
      const letter = await confirmed('letter.rtf', '{\\rtf1\\ansi The office pool reads this letter.\\par}');
      const queues = await t.app
        .get(DataSource)
        .query<{ id: string; parse_queue: string }[]>('SELECT id, parse_queue FROM jobs WHERE id = ANY($1)', [
          [notes, letter],
        ]);
      expect(Object.fromEntries(queues.map((row) => [row.id, row.parse_queue]))).toEqual({
        [notes]: 'parse',
        [letter]: 'office',
      });
      await new Promise((r) => setTimeout(r, 3_000)); // a worker on a job's queue takes it within a second
      expect([await statusOf(notes), await statusOf(letter)]).toEqual(['queued', 'queued']);

      pools.push(await start({ WORKER_QUEUES: 'parse' }));
      expect(await waitForJob(t.http, key.key, notes)).toMatchObject({ status: 'done' });
      await new Promise((r) => setTimeout(r, 2_000));
      expect(await statusOf(letter)).toBe('queued');

      pools.push(await start({ WORKER_QUEUES: 'office' }));
      expect(await waitForJob(t.http, key.key, letter)).toMatchObject({ status: 'done' });
      const markdown = (await t.http.get(`/api/v1/jobs/${letter}/download`).set('X-API-Key', key.key)).text;
      expect(markdown).toContain('The office pool reads this letter.');
    } finally {
      expect((await stopProcess(others, 'SIGTERM')).forced).toBe(false);
      for (const pool of pools) expect((await stopProcess(pool, 'SIGTERM')).forced).toBe(false);
    }
  });

  it.each([
    ['per-user', 2],
    ['off', 5],
  ])(
    "with FAIR_QUEUEING=%s another user's one-page job behind a four-job backlog finishes in place %i",
    async (fairness, place) => {
      // Confirmed through an API with the setting; the suite's own API has the default (per-user).
      const api = fairness === 'per-user' ? t : await createTestApp({}, { ...stack.env, FAIR_QUEUEING: fairness });
      try {
        const other = await signup(api.http, 'fair');
        const otherKey = await createKey(api.http, other);
        await api.app.get(DataSource).query('UPDATE users SET points_balance = 100000 WHERE id = $1', [other.userId]);
        const confirm = async (apiKey: string, name: string, pages: number): Promise<string> => {
          const pdf = await makePdf(Array.from({ length: pages }, (_, i) => `${name}, page ${i + 1}.`));
          const job = (await upload(api.http, apiKey, [{ name: `${name}.pdf`, content: pdf }])).body;
          await api.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set('X-API-Key', apiKey).expect(200);
          return job.job_id as string;
        };
        // No worker runs yet: the queue holds the backlog, then the other user's job, in that order.
        const backlog = [];
        for (let n = 1; n <= 4; n++) backlog.push(await confirm(key.key, `backlog-${n}`, 3));
        const small = await confirm(otherKey.key, 'small', 1);
        const one = await start(); // one job at a time
        try {
          for (const id of [...backlog, small])
            expect((await waitForJob(t.http, id === small ? otherKey.key : key.key, id)).status).toBe('done');
        } finally {
          expect((await stopProcess(one, 'SIGTERM')).forced).toBe(false);
        }
        const order = await t.app
          .get(DataSource)
          .query<{ id: string }[]>('SELECT id FROM jobs WHERE id = ANY($1) ORDER BY finished_at', [
            [...backlog, small],
          ]);
        expect(order.map((row) => row.id).indexOf(small) + 1).toBe(place);
      } finally {
        if (api !== t) await api.close();
      }
    },
  );

  it('on SIGTERM the worker finishes the job in hand before it exits', async () => {
    worker = await start();
    const pdf = await makePdf(
      Array.from({ length: 400 }, (_, i) => `Page ${i + 1} of a long report with some words on it.`),
    );
    const job = (await upload(t.http, key.key, [{ name: 'long.pdf', content: pdf }])).body;
    await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    const inHand = await waitForJob(t.http, key.key, job.job_id, ['processing', 'done']);
    expect(inHand.status).toBe('processing'); // the signal must arrive mid-job for this test to mean anything

    const exit = await stopProcess(worker, 'SIGTERM', 60_000);
    worker = undefined;
    expect(exit.forced).toBe(false);
    const after = (await t.http.get(`/api/v1/jobs/${job.job_id}`).set('X-API-Key', key.key)).body;
    expect(after).toMatchObject({ status: 'done', done_pages: 400 });
    const download = await t.http.get(`/api/v1/jobs/${job.job_id}/download`).set('X-API-Key', key.key).expect(200);
    expect(download.text).toContain('Page 400 of a long report');
  });

  it('a job committed as queued but never sent is found by the sweeper and done', async () => {
    const job = (await upload(t.http, key.key, [{ name: 'lost.md', content: '# sent by the sweeper\n' }])).body;
    // As if the API stopped between its commit and the queue message.
    await t.app
      .get(DataSource)
      .query(`UPDATE jobs SET status = 'queued', confirmed_at = now() - interval '1 minute' WHERE id = $1`, [
        job.job_id,
      ]);
    // Swept before any worker runs, so the sweep under test (not a worker's scheduled one) re-sends it.
    const sweeper = t.app.get(Sweeper);
    expect(await sweeper.sweep()).toMatchObject({ parseResent: 1 });
    expect(await sweeper.sweep()).toMatchObject({ parseResent: 0 });
    worker = await start();
    expect(await waitForJob(t.http, key.key, job.job_id)).toMatchObject({ status: 'done' });
    expect(await sweeper.sweep()).toMatchObject({ parseResent: 0 });
  });

  it('an expired quote cancels the pending job, frees its pages and deletes its inputs', async () => {
    const job = (
      await upload(t.http, key.key, [{ name: 'stale.pdf', content: await makePdf(['stale']) }], { ocr_model: 'basic' })
    ).body;
    expect(job.cost.free_pages_used).toBe(1);
    const inputs = join(t.config.storage.localDir, 'inputs', job.job_id);
    expect(await readdir(inputs)).toHaveLength(1);
    await t.app
      .get(DataSource)
      .query(`UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = $1`, [job.job_id]);

    const confirm = await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set('X-API-Key', key.key);
    expect(confirm.status).toBe(400);
    expect(confirm.body.detail).toMatch(/expired/);
    expect((await t.app.get(Sweeper).expirePending()).expired).toBeGreaterThanOrEqual(1);
    const expired = (await t.http.get(`/api/v1/jobs/${job.job_id}`).set('X-API-Key', key.key)).body;
    expect(expired).toMatchObject({ status: 'cancelled', cost_points: 0 });
    expect(expired.error_log).toMatch(/expired after 24 hours/);
    await expect(readdir(inputs)).rejects.toThrow(/ENOENT/);
    const again = await upload(t.http, key.key, [{ name: 'fresh.pdf', content: await makePdf(['fresh']) }], {
      ocr_model: 'basic',
    });
    expect(again.body.cost.free_pages_used).toBe(1);
  });
});

describe('worker failures', () => {
  const { stack, start } = privateStack('kill', { WORKER_LOCK_MS: '3000', WORKER_STALLED_INTERVAL_MS: '2000' });
  let t: TestApp;
  let key: TestKey;
  const workers = stack.workers;
  beforeAll(() => ({ t, key } = stack));

  it('a worker killed with SIGKILL mid-job: a new worker finishes the job, charged once, one result', async () => {
    const doomed = await start();
    const pdf = await makePdf(
      Array.from({ length: 1200 }, (_, i) => `Page ${i + 1} of the job that outlives its worker.`),
    );
    const job = (await upload(t.http, key.key, [{ name: 'survivor.pdf', content: pdf }])).body;
    await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    const inHand = await waitForJob(t.http, key.key, job.job_id, ['processing', 'done']);
    expect(inHand.status).toBe('processing');
    await stopProcess(doomed, 'SIGKILL');

    await start();
    const done = await waitForJob(t.http, key.key, job.job_id, ['done', 'error'], 90_000);
    expect(done).toMatchObject({ status: 'done', done_pages: 1200, cost_points: 1200 * 30 });
    const db = t.app.get(DataSource);
    const spends = await db.query(
      "SELECT count(*)::int AS n FROM credit_transactions WHERE job_id = $1 AND type = 'spend'",
      [job.job_id],
    );
    expect(spends[0].n).toBe(1);
    const results = await readdir(join(t.config.storage.localDir, 'results', job.job_id));
    // One result: its files, and the pages the finishing attempt delivered one by one (`pages/`).
    expect(results.sort()).toEqual(['document.json', 'pages', 'pages.json', 'result.json', 'result.md']);
    const text = (await t.http.get(`/api/v1/jobs/${job.job_id}/download`).set('X-API-Key', key.key)).text;
    expect(text.match(/Page 1200 of the job/g)).toHaveLength(1);
  });

  it('a corrupt PDF ends in error, refundable, with a readable error_log; refund returns the credits', async () => {
    if (workers.every((w) => w.exitCode !== null || w.signalCode !== null)) await start();
    const job = (await upload(t.http, key.key, [{ name: 'damaged.pdf', content: await makePdf(['soon damaged']) }]))
      .body;
    // The stored input is damaged after intake accepted it (a disk or transfer fault).
    const [file] = await t.app
      .get(DataSource)
      .query('SELECT storage_path FROM job_files WHERE job_id = $1', [job.job_id]);
    await writeFile(
      join(t.config.storage.localDir, file.storage_path),
      Buffer.from('%PDF-1.7\nthis is no longer a pdf'),
    );
    const before = (await t.http.get('/api/v1/account').set('X-API-Key', key.key)).body.points_balance;
    await t.http.post(`/api/v1/jobs/${job.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    const failed = await waitForJob(t.http, key.key, job.job_id);
    expect(failed).toMatchObject({ status: 'error', refundable: true, cost_points: 30 });
    expect(failed.error_log).toMatch(/^damaged\.pdf could not be read as a PDF/);
    const refund = await t.http
      .post(`/api/v1/jobs/${job.job_id}/action`)
      .set('X-API-Key', key.key)
      .send({ action: 'refund' });
    expect(refund.body).toEqual({ refunded: true, points: 30 });
    expect((await t.http.get('/api/v1/account').set('X-API-Key', key.key)).body.points_balance).toBe(before);
  });

  it('a job processing past the maximum run time fails as refundable', async () => {
    const job = (await upload(t.http, key.key, [{ name: 'slow.md', content: '# slow\n' }])).body;
    await t.app
      .get(DataSource)
      .query(`UPDATE jobs SET status = 'processing', started_at = now() - interval '2 hours' WHERE id = $1`, [
        job.job_id,
      ]);
    expect((await t.app.get(Sweeper).failOverdue()).failed).toBeGreaterThanOrEqual(1);
    const after = (await t.http.get(`/api/v1/jobs/${job.job_id}`).set('X-API-Key', key.key)).body;
    expect(after).toMatchObject({ status: 'error', refundable: true });
    expect(after.error_log).toMatch(/did not finish within the time a job may run/);
  });
});

describe('a file past the time a job may run', () => {
  const { stack, start } = privateStack('deadline', { JOB_MAX_RUNTIME_SECONDS: '10' });
  let t: TestApp;
  let key: TestKey;
  beforeAll(() => ({ t, key } = stack));

  it('ends the job as a refundable error; the worker replaces its extraction thread and takes the next job', async () => {
    await start();
    // Twelve sentences a page on 8,000 pages: several times ten seconds to read on any machine here.
    const pdf = await makePdf(
      Array.from({ length: 8_000 }, (_, i) => `Page ${i + 1} of a report too long for ten seconds. `.repeat(12)),
    );
    const slow = (await upload(t.http, key.key, [{ name: 'slow.pdf', content: pdf }])).body;
    await t.http.post(`/api/v1/jobs/${slow.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    const failed = await waitForJob(t.http, key.key, slow.job_id, ['done', 'error'], 60_000);
    expect(failed).toMatchObject({ status: 'error', refundable: true });
    expect(failed.error_log).toMatch(/^slow\.pdf took longer than this job may run/);

    const next = (await upload(t.http, key.key, [{ name: 'next.pdf', content: await makePdf(['Still working']) }]))
      .body;
    await t.http.post(`/api/v1/jobs/${next.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    expect(await waitForJob(t.http, key.key, next.job_id)).toMatchObject({ status: 'done' });
  });
});
