import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, waitForJob, type Job } from '../clients/typescript/src';
import { createKey, signup } from '../test/support/accounts';
import { docconv } from '../test/support/cli';
import { upload } from '../test/support/jobs';
import { privateStack } from '../test/support/private-stack';
import { smokePrograms } from '../test/support/sdk-programs';

/** The rate limiter's window: a key's requests per minute are counted over it. */
const WINDOW_MS = 60_000;

/**
 * Clients that wait like a person would: a job that takes longer than a key's rate-limit window
 * (held queued here until a worker starts, past the window) is waited for to the end by the
 * TypeScript SDK and by the Python, Go and Java SDKs' wait helpers, each with a key of 3 requests a
 * minute, and by `docconv upload --wait` with one of 10, which a wait reading the job every second
 * exhausts within seconds.
 */
describe('waiting for a job longer than the rate-limit window', () => {
  const { stack, start } = privateStack('waits');
  let baseUrl: string;
  let folder: string;
  let smoke: Awaited<ReturnType<typeof smokePrograms>>;

  beforeAll(async () => {
    await stack.t.app.listen(0, '127.0.0.1');
    baseUrl = (await stack.t.app.getUrl()).replace('[::1]', '127.0.0.1');
    folder = await mkdtemp(join(tmpdir(), 'docconv-waits-'));
    smoke = await smokePrograms();
  }, 150_000);
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
    await smoke?.close();
  });

  it('every SDK and the CLI follow the job’s events to the end, well inside their keys’ limits', async () => {
    const user = await signup(stack.t.http, 'waits');
    const uploader = await createKey(stack.t.http, user, { rate_limit_rpm: 100_000 });
    const slow = await createKey(stack.t.http, user, { rate_limit_rpm: 3 });
    const cliKey = await createKey(stack.t.http, user, { rate_limit_rpm: 10 });

    // The SDK's job: uploaded and confirmed with another key of the same user, waited for with the slow one.
    const queued = await upload(stack.t.http, uploader.key, [
      { name: 'notes.md', content: Buffer.from('# Notes\n\nWaited for past the window.\n') },
    ]);
    await stack.t.http.post(`/api/v1/jobs/${queued.body.job_id}/confirm`).set('X-API-Key', uploader.key).expect(200);
    const seen: Job['status'][] = [];
    const client = createClient({ baseUrl, apiKey: slow.key });
    const sdkWait = waitForJob(client, queued.body.job_id as string, {
      onProgress: (job) => seen.push(job.status),
      intervalMs: 2_000,
    });

    // The CLI's job: uploaded, confirmed and waited for with its key alone.
    await writeFile(join(folder, 'minutes.md'), '# Minutes\n\nThe CLI waited for this.\n');
    const cli = docconv(
      ['upload', 'minutes.md', '--confirm', '--yes', '--wait', '--out', 'minutes-result.md'],
      { ...process.env, DOCCONV_URL: baseUrl, DOCCONV_API_KEY: cliKey.key, XDG_CONFIG_HOME: join(folder, 'config') },
      folder,
    );

    // And each SDK's wait helper, with a key of 3 requests a minute of its own, on a job of its own.
    const sdkWaits = Object.entries(smoke.programs).map(async ([language, program]) => {
      const own = await createKey(stack.t.http, user, { rate_limit_rpm: 3 });
      const job = await upload(stack.t.http, uploader.key, [
        { name: `${language}.md`, content: Buffer.from(`# ${language}\n\nWaited for past the window.\n`) },
      ]);
      await stack.t.http.post(`/api/v1/jobs/${job.body.job_id}/confirm`).set('X-API-Key', uploader.key).expect(200);
      return {
        language,
        outcome: await program({ DOCCONV_URL: baseUrl, DOCCONV_WAIT_JOB: job.body.job_id, DOCCONV_API_KEY: own.key }),
      };
    });

    // Past the window, a worker comes and the jobs run.
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 5_000));
    await start();

    const job = await sdkWait;
    expect(job.status).toBe('done');
    expect(seen[0]).toBe('queued');
    expect(seen).toContain('done');

    const run = await cli;
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.not.stringContaining('429') });
    expect(await readFile(join(folder, 'minutes-result.md'), 'utf8')).toContain('The CLI waited for this.');
    for (const { language, outcome } of await Promise.all(sdkWaits)) {
      expect({ language, status: outcome.status, stdout: outcome.stdout, stderr: outcome.stderr }).toEqual({
        language,
        status: 0,
        stdout: expect.stringMatching(/^waited: done\n/),
        stderr: '',
      });
    }
  }, 240_000);
});
