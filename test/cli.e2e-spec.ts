import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { REPO_ROOT } from '@docconv/testing';
import { createKey, signup, type TestKey } from './support/accounts';
import { makeMixedPdf } from './support/fixtures';
import { checkStructuredResult } from './support/structured-result-check';
import { createTestApp, uniqueEmail, type TestApp } from './support/test-app';

/** The compiled CLI; `npm run build` compiles it with the rest. */
const CLI = join(REPO_ROOT, 'clients', 'typescript', 'dist', 'cli.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `docconv` as a child process, asynchronously: the API answering it runs in this
 * process, so a blocking spawn would stall the very server the CLI is calling.
 */
function docconv(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Run> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before the tests`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The page counts of the non-TTY progress lines ("processing: 12/300 pages, 0/1 files"). */
function progressPages(output: string): number[] {
  return [...output.matchAll(/^\w+: (\d+)\/(\d+) pages, \d+\/\d+ files$/gm)].map((m) => Number(m[1]));
}

describe('docconv CLI against the running service', () => {
  let t: TestApp;
  let key: TestKey;
  let url: string;
  let folder: string;
  let env: NodeJS.ProcessEnv;
  let jobId: string;
  const run = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => docconv(args, { ...env, ...extraEnv }, folder);
  const SCANNED_PAGES = 10;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    url = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    const user = await signup(t.http, 'cli');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
    folder = await mkdtemp(join(tmpdir(), 'docconv-cli-'));
    env = {
      ...process.env,
      DOCCONV_URL: url,
      DOCCONV_API_KEY: key.key,
      XDG_CONFIG_HOME: join(folder, 'config'),
    };
  });
  afterAll(async () => {
    await t.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('upload --confirm --wait --yes prints the preview, shows advancing progress and writes the Markdown', async () => {
    // Scanned pages go through OCR, which makes the job last long enough for progress to show.
    const pages = [
      { text: 'The annual report opens with a typed page.' },
      ...Array.from({ length: SCANNED_PAGES }, (_, i) => ({ scan: `Scanned page ${i + 2} of the report` })),
      { text: 'The annual report closes with a typed page.' },
    ];
    await writeFile(join(folder, 'report.pdf'), await makeMixedPdf(pages));
    const total = pages.length;

    const result = await run([
      'upload',
      'report.pdf',
      '--model',
      'basic',
      '--confirm',
      '--wait',
      '--yes',
      '--interval',
      '200',
      '--out',
      'result.md',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    jobId = /^Job:\s+([0-9a-f-]{36})$/m.exec(result.stdout)![1];
    expect(result.stdout).toMatch(new RegExp(`^Pages:\\s+${total}$`, 'm'));
    expect(result.stdout).toMatch(new RegExp(`^Free pages:\\s+${total}$`, 'm'));
    expect(result.stdout).toMatch(/^Cost:\s+0 points \(\$0\.00\)$/m);
    expect(result.stdout).toMatch(/^Balance:\s+\d+ points \(\$\d+\.\d+\)$/m);
    expect(result.stdout).toContain(`Confirmed job ${jobId}`);

    const progress = progressPages(result.stdout);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const between = new Set(progress.filter((done) => done > 0 && done < total));
    expect(between.size).toBeGreaterThanOrEqual(3); // several steps between start and end, not a jump
    expect(progress.at(-1)).toBe(total);
    expect(result.stdout).toMatch(new RegExp(`^done: ${total}/${total} pages, 1/1 files$`, 'm'));

    const markdown = await readFile(join(folder, 'result.md'), 'utf8');
    expect(markdown).toContain('The annual report opens with a typed page.');
    expect(markdown).toContain('The annual report closes with a typed page.');
    expect(markdown).toMatch(/Scanned page \d+ of the report/);
  }, 120_000);

  it('convert --format docx writes the document', async () => {
    const result = await run(['convert', jobId, '--format', 'docx', '--out', 'x.docx']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const docx = await readFile(join(folder, 'x.docx'));
    expect(docx.subarray(0, 2).toString()).toBe('PK');
    expect(result.stdout).toContain(`Wrote x.docx (${docx.length} bytes)`);
  });

  it('convert --format hwpx writes the Hancom Office document', async () => {
    const result = await run(['convert', jobId, '--format', 'hwpx']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const hwpx = await readFile(join(folder, `${jobId}.hwpx`));
    expect(hwpx.subarray(30, 38).toString()).toBe('mimetype');
    expect(result.stdout).toContain(`Wrote ${jobId}.hwpx (${hwpx.length} bytes)`);
  });

  it('download --format json|zip writes the structured result and the zip; md goes to standard output', async () => {
    const json = await run(['download', jobId, '--format', 'json']);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    expect(json.stdout).toContain(`Wrote ${jobId}.json`);
    const structured = JSON.parse(await readFile(join(folder, `${jobId}.json`), 'utf8'));
    const markdown = await readFile(join(folder, 'result.md'), 'utf8');
    expect(checkStructuredResult(markdown, structured).problems).toEqual([]);
    expect(structured.pages).toHaveLength(SCANNED_PAGES + 2);
    const zip = await run(['download', jobId, '--format', 'zip', '--out', 'all.zip']);
    expect(zip.code).toBe(0);
    const files = Object.keys((await JSZip.loadAsync(await readFile(join(folder, 'all.zip')))).files).sort();
    expect(files).toEqual(['result.json', 'result.md']);
    const md = await run(['download', jobId]);
    expect(md.code).toBe(0);
    expect(md.stdout).toBe(markdown);
    const bad = await run(['download', jobId, '--format', 'pdf']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format must be one of md, json, zip');
  });

  it('balance prints the points left', async () => {
    const result = await run(['balance']);
    expect(result.code).toBe(0);
    const account = (await t.http.get('/api/v1/account').set('X-API-Key', key.key).expect(200)).body;
    expect(result.stdout).toMatch(new RegExp(`^${account.points_balance} points \\(\\$\\d+\\.\\d{2,3}\\)\n$`));
  });

  it('engines shows what the workers run, as /capabilities reports it', async () => {
    const result = await run(['engines']);
    expect(result.code).toBe(0);
    const capabilities = (await t.http.get('/api/v1/capabilities').expect(200)).body;
    const engines = (capabilities.ocr_engines as string[])
      .map((name) => (name === capabilities.default_ocr_engine ? `${name} (default)` : name))
      .join(', ');
    expect(result.stdout).toMatch(new RegExp(`^OCR engines: +${engines.replace(/[()]/g, '\\$&')}$`, 'm'));
    expect(result.stdout).toMatch(/^Transcription: +not available$/m); // the suite's worker runs no speech engine
    // Without transcription, audio and video are not offered; the formats added beside OOXML are.
    const formats = /^Input formats: +(.*)$/m.exec(result.stdout)?.[1] ?? '';
    expect(formats).toContain('ODT');
    expect(formats).toContain('e-mail (EML)');
    expect(formats).not.toMatch(/audio|video/);
  });

  it('job and jobs show the finished job', async () => {
    const one = await run(['job', jobId]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^Status:\s+done$/m);
    expect(one.stdout).toMatch(
      new RegExp(`^Progress:\\s+${SCANNED_PAGES + 2}/${SCANNED_PAGES + 2} pages, 1/1 files$`, 'm'),
    );
    const list = await run(['jobs', '--status', 'done']);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^JOB\s+STATUS/);
    expect(list.stdout).toContain(jobId);
  });

  it('a bad key fails with the problem’s detail on stderr and a non-zero exit', async () => {
    const problem = (await t.http.get('/api/v1/account').set('X-API-Key', 'dcv_wrong_key').expect(401)).body;
    const result = await run(['balance'], { DOCCONV_API_KEY: 'dcv_wrong_key' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(problem.detail);
    expect(result.stderr).toContain('docconv login');
  });

  it('without a terminal and without --yes, refuses to confirm and leaves the job pending', async () => {
    await writeFile(join(folder, 'note.md'), '# A note\n');
    const result = await run(['upload', 'note.md', '--confirm']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no terminal to ask/);
    expect(result.stderr).toMatch(/--yes/);
    const pendingId = /^Job:\s+([0-9a-f-]{36})$/m.exec(result.stdout)![1];
    const job = (await t.http.get(`/api/v1/jobs/${pendingId}`).set('X-API-Key', key.key).expect(200)).body;
    expect(job.status).toBe('pending');
  });

  it('usage errors exit 2 and name the problem', async () => {
    const unknown = await run(['upload', 'a.pdf', '--colour', 'red']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--colour'");
    const format = await run(['convert', jobId, '--format', 'odt']);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--format must be one of');
    const command = await run(['frobnicate']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('unknown command frobnicate');
  });

  it('login --signup saves a key that later commands use without the environment', async () => {
    const email = uniqueEmail('cli-login');
    const withoutKey = { DOCCONV_API_KEY: '', DOCCONV_URL: '' };
    const login = await run(['login', '--signup', '--email', email, '--url', url], {
      ...withoutKey,
      DOCCONV_PASSWORD: 'correct horse battery',
    });
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    const configFile = join(folder, 'config', 'docconv', 'config.json');
    expect((await stat(configFile)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(configFile, 'utf8'));
    expect(saved).toEqual({ url, apiKey: expect.stringMatching(/^dcv_/) });

    const balance = await run(['balance'], withoutKey);
    expect(balance.code).toBe(0);
    expect(balance.stdout).toMatch(/^\d+ points \(\$\d+\.\d+\)\n$/);

    const again = await run(['login', '--email', email, '--url', url], {
      ...withoutKey,
      DOCCONV_PASSWORD: 'wrong password',
    });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/--signup/);
  });
});
