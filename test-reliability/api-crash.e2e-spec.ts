import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, stopProcess, TEST_OUTPUT } from '@docconv/testing';
import request from 'supertest';
import { freePort } from '../tools/stack/services';
import { createKey, signup, type TestKey } from '../test/support/accounts';
import { privateDatabase } from '../test/support/private-stack';
import { upload, waitForJob } from '../test/support/jobs';
import { formatHistogram, histogram, ms, printFigures } from './support/figures';
import { childPids, commandLine, isAlive } from './support/process-memory';

/** The launcher's child running `entry` (`apps/api/src/main.js` or `apps/worker/src/main.js`). */
function childRunning(launcher: ChildProcess, entry: string): number | undefined {
  return childPids(launcher.pid!).find((pid) => commandLine(pid).includes(entry));
}

async function until<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined> | T | undefined,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The local stack's launcher (`npm start`) with the API SIGKILLed under load: the launcher starts
 * it again, it answers within seconds, no job is lost, what the dead process was receiving is
 * swept, and the worker runs on untouched.
 */
describe('the API process SIGKILLed under the running stack', () => {
  let launcher: ChildProcess;
  let folder: string;
  let baseUrl: string;
  // Its jobs in a database of their own: the suite's worker sweeps the suite's database.
  const database = privateDatabase(`crash_${process.pid}`);

  beforeAll(async () => {
    await database.create();
    folder = await mkdtemp(join(tmpdir(), 'docconv-reliability-stack-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const log = createWriteStream(join(TEST_OUTPUT, `stack-crash-${process.pid}-${Date.now()}.log`));
    launcher = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'tools', 'stack', 'cli.js'), 'start'], {
      cwd: folder, // its state file and console lookup stay in this folder
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: database.url,
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}-crash`,
        STORAGE_DIR: join(folder, 'storage'),
        SCRATCH_DIR: join(folder, 'scratch'),
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    launcher.stdout?.pipe(log);
    launcher.stderr?.pipe(log);
    await until('the stack answering', 60_000, async () =>
      (await fetch(`${baseUrl}/api/v1/health/ready`).catch(() => undefined))?.status === 200 ? true : undefined,
    );
  }, 90_000);

  afterAll(async () => {
    if (launcher) await stopProcess(launcher, 'SIGTERM', 30_000);
    if (folder) await rm(folder, { recursive: true, force: true });
    await database.drop();
  });

  it('is started again and answers within seconds; no job is lost; nothing it held is left behind', async () => {
    const http = request(baseUrl);
    const key: TestKey = await createKey(http, await signup(http, 'crash'), { rate_limit_rpm: 100_000 });
    const jobs: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await upload(http, key.key, [{ name: `note-${i}.md`, content: `# Note ${i}\n\nKept.\n` }]);
      expect(res.status).toBe(201);
      jobs.push(res.body.job_id as string);
      // Half are confirmed before the crash, half after.
      if (i % 2 === 0) await http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', key.key).expect(200);
    }

    // Load: two clients reading a job as fast as they can, and an upload in the middle of its body.
    const samples: { at: number; status: number | 'network' }[] = [];
    let loading = true;
    const reader = async (): Promise<void> => {
      while (loading) {
        const at = Date.now();
        const status = await fetch(`${baseUrl}/api/v1/jobs/${jobs[0]}`, { headers: { 'X-API-Key': key.key } })
          .then((r) => r.status)
          .catch(() => 'network' as const);
        samples.push({ at, status });
      }
    };
    const load = [reader(), reader()];
    const inFlight = connect(Number(new URL(baseUrl).port), '127.0.0.1');
    inFlight.on('error', () => undefined);
    inFlight.write(
      `POST /api/v1/jobs/upload HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key.key}\r\n` +
        'Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 50000000\r\n\r\n' +
        '--b\r\nContent-Disposition: form-data; name="files"; filename="half.pdf"\r\n\r\n%PDF-1.4\n' +
        '0'.repeat(4 * 1024 * 1024),
    );
    await new Promise((r) => setTimeout(r, 1_000));

    const apiPid = childRunning(launcher, 'apps/api/src/main.js')!;
    const workerPid = childRunning(launcher, 'apps/worker/src/main.js')!;
    expect(apiPid).toBeGreaterThan(0);
    const killedAt = Date.now();
    process.kill(apiPid, 'SIGKILL');
    const newPid = await until('a new API process', 30_000, () => {
      const pid = childRunning(launcher, 'apps/api/src/main.js');
      return pid !== undefined && pid !== apiPid ? pid : undefined;
    });
    await until('the API answering again', 60_000, () =>
      samples.some((s) => s.at > killedAt && s.status === 200) ? true : undefined,
    );
    const answeredAgain = samples.find((s) => s.at > killedAt && s.status === 200)!.at - killedAt;
    loading = false;
    await Promise.all(load);
    inFlight.destroy();

    // Every job is there; the confirmed ones finish, and the others can still be confirmed.
    for (const [i, job] of jobs.entries()) {
      if (i % 2 === 1) await http.post(`/api/v1/jobs/${job}/confirm`).set('X-API-Key', key.key).expect(200);
    }
    const finished = await Promise.all(jobs.map((job) => waitForJob(http, key.key, job, ['done', 'error'], 60_000)));
    // What the killed process was receiving is gone: the new one swept the scratch folder it left.
    const scratch = await readdir(join(folder, 'scratch'));
    const duringOutage = samples.filter((s) => s.at > killedAt && s.at < killedAt + answeredAgain);

    printFigures('API SIGKILLed under load, the launcher restarting it', [
      ['requests sent', samples.length],
      ['answers', formatHistogram(histogram(samples.map((s) => s.status)))],
      ['answers during the outage', formatHistogram(histogram(duringOutage.map((s) => s.status)))],
      ['killed → answering again', ms(answeredAgain)],
      ['API process', `${apiPid} → ${newPid}`],
      ['worker process', `${workerPid}, ${isAlive(workerPid) ? 'running throughout' : 'gone'}`],
      [
        'jobs done (of those uploaded before the kill)',
        `${finished.filter((j) => j.status === 'done').length} of ${jobs.length}`,
      ],
      ['scratch folders after the restart', scratch.join(', ')],
      ...finished
        .filter((j) => j.status !== 'done')
        .map((j): [string, string] => [`job ${String(j.job_id)} ended ${String(j.status)}`, String(j.error_log)]),
    ]);
    expect(samples.filter((s) => typeof s.status === 'number' && s.status >= 500)).toEqual([]);
    expect(finished.map((j) => j.status)).toEqual(jobs.map(() => 'done'));
    expect(scratch.filter((name) => name.startsWith('api-'))).toEqual([expect.stringMatching(`^api-${newPid}-`)]);
    expect(scratch.filter((name) => name.startsWith('worker-'))).toEqual([
      expect.stringMatching(`^worker-${workerPid}-`),
    ]);
    expect(scratch).toHaveLength(2);
    expect(isAlive(workerPid)).toBe(true);
    expect(childRunning(launcher, 'apps/worker/src/main.js')).toBe(workerPid);
  }, 180_000);

  it('a signal to the launcher stops everything it started, and leaves no temporary file anywhere', async () => {
    const children = childPids(launcher.pid!);
    expect(children.length).toBeGreaterThanOrEqual(2);
    // Engines loaded by the worker (onnxruntime) write their debug files into its own folder, not /tmp.
    for (const pid of children) expect(existsSync(join(tmpdir(), `mat-debug-${pid}.log`))).toBe(false);
    const exit = await stopProcess(launcher, 'SIGTERM', 30_000);
    expect(exit.forced).toBe(false);
    expect(children.filter(isAlive)).toEqual([]);
    expect(existsSync(join(folder, '.data', 'stack.json'))).toBe(false);
    expect(await readdir(join(folder, 'scratch'))).toEqual([]);
  }, 60_000);
});
