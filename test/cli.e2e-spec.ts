import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import JSZip from 'jszip';
import { DataSource } from 'typeorm';
import { ERROR_CODES } from '@docconv/contracts';
import { attachmentDisposition, downloadName } from '@docconv/storage';
import { REPO_ROOT } from '@docconv/testing';
import { formatJob } from '../clients/typescript/src/cli/format';
import { hintFor } from '../clients/typescript/src/cli/hints';
import { defaultModel, whyBasicCostsLess } from '../clients/typescript/src/cli/models';
import { localName, shellWord } from '../clients/typescript/src/cli/output';
import { dispositionFilename } from '../clients/typescript/src/content-disposition';
import { DocconvError } from '../clients/typescript/src/errors';
import { normaliseJob } from '../clients/typescript/src/normalize';
import { createKey, signup, type TestKey } from './support/accounts';
import { docconv, type CliRun } from './support/cli';
import { makeZip } from './support/archives';
import { makeMixedPdf, makePdf, makeTextPng } from './support/fixtures';
import { waitForJob } from './support/jobs';
import { FREE_PAGES_PER_MONTH } from './support/money';
import { checkStructuredResult } from './support/structured-result-check';
import { createTestApp, uniqueEmail, type TestApp } from './support/test-app';

const execFileAsync = promisify(execFile);

/** Runs a command the way a person would in a shell at `cwd`, asynchronously (the API runs in this process). */
async function shell(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<CliRun> {
  try {
    const { stdout, stderr } = await execFileAsync(file, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? null, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** An HTTP call as the API documents it ("POST /api/v1/jobs/{id}/action"), which a person at the CLI does not type. */
const API_CALL = /\b(GET|POST|PUT|PATCH|DELETE) \/|\/api\/v1\//;

/** The page counts of the non-TTY progress lines ("processing: 12/300 pages, 0/1 files"). */
function progressPages(output: string): number[] {
  return [...output.matchAll(/^\w+: (\d+)\/(\d+) pages, \d+\/\d+ files$/gm)].map((m) => Number(m[1]));
}

describe('the names the CLI saves under', () => {
  it.each([
    '회의 자료.zip',
    'bundle.zip/a.pdf (+5 more)',
    'CON.pdf',
    'a "quoted"; b.pdf',
    '50%25 off.pdf',
    'x\u202eyz.pdf',
  ])('reads back the name the service gives %s', (title) => {
    const name = downloadName(title, 'md');
    expect(dispositionFilename(attachmentDisposition(name))).toBe(name);
  });

  it('keeps a name inside the folder it is saved in', () => {
    const result = { jobId: 'job-1', format: 'docx' as const };
    expect(localName(result, 'Report.docx')).toBe('Report.docx');
    expect(localName(result, '../../etc/passwd')).toBe('passwd');
    expect(localName(result, '..\\..\\boot.ini')).toBe('boot.ini');
    expect(localName(result, '..')).toBe('job-1.docx');
    expect(localName(result, null)).toBe('job-1.docx');
  });

  it('quotes a path for the shell only when it must', () => {
    expect(shellWord('out/report.md')).toBe('out/report.md');
    expect(shellWord('회의 자료.md')).toBe(`'회의 자료.md'`);
    expect(shellWord("it's.md")).toBe(`'it'\\''s.md'`);
  });
});

describe('the hints and the default model of the CLI', () => {
  const problem = (code: string, status = 400) => new DocconvError({ status, title: 'Refused', detail: 'No.', code });
  const shortOfCredits = problem('insufficient_credits', 402);

  it('a shortfall suggests --model basic only for a premium job the basic model charges less', () => {
    const basicJob = { model: 'basic', pagesAndImages: 3 };
    const premiumJob = { model: 'premium', pagesAndImages: 3 };
    const prices = { basic: { page: 10, image: 10 }, premium: { page: 30, image: 30 } };
    expect(whyBasicCostsLess(basicJob, prices, 100)).toBeUndefined();
    expect(whyBasicCostsLess(premiumJob, prices, 100)).toBe('100 free pages left this month');
    expect(whyBasicCostsLess(premiumJob, prices, 0)).toBe('10 points a page instead of 30');
    expect(whyBasicCostsLess({ model: 'premium', pagesAndImages: 0 }, prices, 100)).toBeUndefined(); // media only
    const samePrices = { basic: prices.premium, premium: prices.premium };
    expect(whyBasicCostsLess(premiumJob, samePrices, 0)).toBeUndefined();

    const onBasic = hintFor(shortOfCredits, { jobId: 'job-1' });
    expect(onBasic).not.toContain('--model basic');
    expect(onBasic).toBe(
      'Buy credits with `docconv buy <usd>` (it prints the page to pay on), then confirm the job again: `docconv confirm job-1 --yes`.',
    );
    const onPremium = hintFor(shortOfCredits, { jobId: 'job-1', basicInstead: '100 free pages left this month' });
    expect(onPremium).toContain(
      'The basic model costs less (100 free pages left this month): upload the files again with --model basic.',
    );
    expect(onPremium).toContain('Or buy credits with `docconv buy <usd>`');
    // Where the service sells no credits, its operator is the one to ask; a conversion is run again.
    expect(hintFor(shortOfCredits, { paymentsAvailable: false })).toBe(
      'Ask the service’s operator for points (it sells no credits).',
    );
    expect(hintFor(shortOfCredits)).toContain('then run the command again');
  });

  it('every hint names a docconv command or a setting, never an API call', () => {
    const contexts = [{}, { jobId: 'job-1' }, { jobId: 'job-1', basicInstead: 'why', paymentsAvailable: false }];
    for (const code of [...ERROR_CODES, 'network_error', 'timeout'])
      for (const context of contexts) expect(hintFor(problem(code, 500), context) ?? '').not.toMatch(API_CALL);
    expect(hintFor(problem('invalid_state'), { jobId: 'job-1' })).toBe(
      'See where the job stands with `docconv job job-1`.',
    );
    const failed = formatJob(normaliseJob({ job_id: 'job-1', status: 'error', refundable: true }));
    expect(failed).toMatch(/^Refundable:\s+yes: docconv retry job-1 \(free\) or docconv refund job-1$/m);
    expect(failed).not.toMatch(API_CALL);
  });

  it('without --model, basic while free pages are left (saying so), else premium; rapidocr takes premium', () => {
    expect(defaultModel(100, undefined)).toEqual({
      model: 'basic',
      note: 'Using the basic model: 100 free pages left this month (--model premium for the premium engines)',
    });
    expect(defaultModel(1, 'tesseract').note).toContain('1 free page left this month');
    expect(defaultModel(0, undefined)).toEqual({ model: 'premium' });
    expect(defaultModel(100, 'rapidocr')).toEqual({ model: 'premium' });
  });
});

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

  it('upload --follow writes each page of the Markdown as it is final: joined, the result', async () => {
    const scans = Array.from({ length: 4 }, (_, i) => ({ scan: `Followed page ${i + 1} of the memo` }));
    await writeFile(join(folder, 'memo.pdf'), await makeMixedPdf(scans));
    const followed = await run(['upload', 'memo.pdf', '--model', 'basic', '--confirm', '--yes', '--follow']);
    expect({ code: followed.code, stderr: followed.stderr }).toEqual({
      code: 0,
      stderr: expect.stringContaining('Confirmed job'),
    });
    const id = /Confirmed job ([0-9a-f-]{36})/.exec(followed.stderr)![1];
    const result = await run(['download', id]);
    expect(result.code).toBe(0);
    expect(followed.stdout).toBe(result.stdout);
    expect(followed.stdout).toContain('Followed page 4 of the memo');
  });

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
    expect(bad.stderr).toContain('--format must be one of md, json, zip, docx, pptx, hwpx, xlsx_basic, xlsx_advanced');
  });

  it('chunks writes every chunk as a JSON line, within --max-tokens, to a file or standard output', async () => {
    const saved = await run(['chunks', jobId, '--max-tokens', '64', '--overlap-tokens', '8', '--out', 'chunks.jsonl']);
    expect({ code: saved.code, stderr: saved.stderr }).toEqual({ code: 0, stderr: '' });
    const lines = (await readFile(join(folder, 'chunks.jsonl'), 'utf8')).trim().split('\n');
    expect(saved.stdout).toBe(`Wrote ${lines.length} chunks to chunks.jsonl.\n`);
    const chunks = lines.map((line) => JSON.parse(line) as { index: number; tokens: number; pages: number[] });
    expect(chunks.map((chunk) => chunk.index)).toEqual(chunks.map((_, i) => i));
    expect(Math.max(...chunks.map((chunk) => chunk.tokens))).toBeLessThanOrEqual(64);
    const byPage = await run(['chunks', jobId, '--strategy', 'page']);
    expect(byPage.code).toBe(0);
    const pages = byPage.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { pages: number[] }).pages);
    expect(pages.map((p) => p[0])).toEqual(Array.from({ length: SCANNED_PAGES + 2 }, (_, i) => i + 1));
    const bad = await run(['chunks', jobId, '--strategy', 'sentence']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--strategy must be one of structure, page');
    const tooSmall = await run(['chunks', jobId, '--max-tokens', '10']);
    expect(tooSmall.code).toBe(1);
    expect(tooSmall.stderr).toContain('max_tokens');
  });

  it('convert --format xlsx_basic shows the price, refuses without a terminal or --yes, and charges once with it', async () => {
    const db = t.app.get(DataSource);
    const owner = (await db.query('SELECT user_id FROM jobs WHERE id = $1', [jobId]))[0].user_id as string;
    await db.query('UPDATE users SET points_balance = 100000 WHERE id = $1', [owner]);
    const balance = async () =>
      Number((await db.query('SELECT points_balance FROM users WHERE id = $1', [owner]))[0].points_balance);
    const units = (await t.http.get(`/api/v1/jobs/${jobId}`).set('X-API-Key', key.key).expect(200)).body
      .conversion_units as number;
    expect(units).toBe(SCANNED_PAGES + 2);
    const price = new RegExp(
      `^Converting job ${jobId} to xlsx_basic costs (\\d+) points \\(\\$[\\d.]+\\) \\(${units} conversion units\\)`,
      'm',
    );

    const refused = await run(['convert', jobId, '--format', 'xlsx_basic', '--out', 'sheet.xlsx']);
    expect(refused.code).toBe(2);
    const points = Number(price.exec(refused.stdout)?.[1]);
    expect(points).toBeGreaterThan(0);
    expect(refused.stderr).toMatch(/no terminal to ask whether to spend/);
    expect(refused.stderr).toContain('--yes');
    expect(existsSync(join(folder, 'sheet.xlsx'))).toBe(false);
    expect(await balance()).toBe(100000);

    const charged = await run(['convert', jobId, '--format', 'xlsx_basic', '--out', 'sheet.xlsx', '--yes']);
    expect(charged.stderr).toBe('');
    expect(charged.code).toBe(0);
    expect(Number(price.exec(charged.stdout)?.[1])).toBe(points);
    expect(await balance()).toBe(100000 - points);
    expect((await readFile(join(folder, 'sheet.xlsx'))).subarray(0, 2).toString()).toBe('PK');

    const again = await run(['convert', jobId, '--format', 'xlsx_basic', '--out', 'sheet-again.xlsx']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Job ${jobId} is converted to xlsx_basic already: downloading it again is free.`);
    expect(await balance()).toBe(100000 - points);
    const download = await run(['download', jobId, '--format', 'xlsx_basic', '--out', 'sheet-download.xlsx']);
    expect(download.code).toBe(0);
    expect(await readFile(join(folder, 'sheet-download.xlsx'))).toEqual(await readFile(join(folder, 'sheet.xlsx')));
  });

  it('a job from one archive is titled with its name, and --out with a folder saves under that title', async () => {
    const archive = '회의 자료.zip';
    await writeFile(
      join(folder, archive),
      makeZip([
        { name: '첫째.md', data: '# 첫째 안건\n\nThe first item.\n' },
        { name: 'docs/second.md', data: '# Second\n\nThe second item.\n' },
      ]),
    );
    const result = await run(['upload', archive, '--confirm', '--yes', '--wait', '--interval', '200', '--out', 'out/']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const archiveJob = /^Job:\s+([0-9a-f-]{36})$/m.exec(result.stdout)![1];
    const saved = join(folder, 'out', '회의 자료.md');
    expect(result.stdout).toContain(`Wrote ${join('out', '회의 자료.md')}`);
    const markdown = await readFile(saved, 'utf8');
    expect(markdown).toContain('The first item.');
    expect(markdown).toContain('The second item.');

    const job = (await t.http.get(`/api/v1/jobs/${archiveJob}`).set('X-API-Key', key.key).expect(200)).body;
    expect(job.filename).toBe(archive);
    const download = await t.http.get(`/api/v1/jobs/${archiveJob}/download`).set('X-API-Key', key.key).expect(200);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="__ __.md"; filename*=UTF-8''${encodeURIComponent('회의 자료.md')}`,
    );

    // An existing folder without a trailing slash is a folder too (it used to fail with EISDIR).
    const json = await run(['download', archiveJob, '--format', 'json', '--out', 'out']);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    expect(JSON.parse(await readFile(join(folder, 'out', '회의 자료.json'), 'utf8')).blocks.length).toBeGreaterThan(0);
    const docx = await run(['convert', archiveJob, '--format', 'docx', '--out', 'out/']);
    expect(docx.code).toBe(0);
    expect((await readFile(join(folder, 'out', '회의 자료.docx'))).subarray(0, 2).toString()).toBe('PK');
  });

  it('a result that cannot be written says how to fetch it again, and that command works', async () => {
    await writeFile(join(folder, 'paid.md'), '# Paid\n\nA result worth keeping.\n');
    await writeFile(join(folder, 'blocker'), 'a file where a folder was meant');
    const result = await run(['upload', 'paid.md', '--confirm', '--yes', '--wait', '--out', 'blocker/paid.md']);
    expect(result.code).toBe(1);
    const paidJob = /^Job:\s+([0-9a-f-]{36})$/m.exec(result.stdout)![1];
    expect(result.stderr).toContain(
      'docconv: Could not write blocker/paid.md: a part of the path is a file, not a folder (ENOTDIR)',
    );
    expect(result.stderr).toContain(`job ${paidJob} is finished and stays downloadable`);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    const command = new RegExp(`^  docconv download ${paidJob} --format md --out (\\S+)$`, 'm').exec(result.stderr);
    expect(command?.[1]).toBe('paid.md');

    const again = await run(['download', paidJob, '--format', 'md', '--out', command![1]]);
    expect(again.code).toBe(0);
    expect(await readFile(join(folder, 'paid.md'), 'utf8')).toContain('A result worth keeping.');

    const unwritable = await run(['download', paidJob, '--out', 'blocker/']);
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toMatch(/^docconv: Could not write blocker\/: .*\((EEXIST|ENOTDIR)\)$/m);
    expect(unwritable.stderr).toContain(`docconv download ${paidJob} --format md --out paid.md`);
  });

  it('runs as `npx docconv` from the repository root and as a global install', async () => {
    const npx = await shell('npx', ['--no-install', 'docconv', '--help'], REPO_ROOT);
    expect(npx.code).toBe(0);
    expect(npx.stdout).toMatch(/^Usage: docconv <command> \[options\]$/m);
    expect(npx.stdout).toMatch(/^ {2}convert +convert a finished job/m);

    const prefix = await mkdtemp(join(tmpdir(), 'docconv-global-'));
    try {
      const install = await shell(
        'npm',
        [
          'install',
          '--global',
          '--prefix',
          prefix,
          '--offline',
          '--no-audit',
          '--no-fund',
          join(REPO_ROOT, 'clients', 'typescript'),
        ],
        prefix,
      );
      expect(install.stderr).not.toMatch(/npm error/);
      expect(install.code).toBe(0);
      const help = await shell(join(prefix, 'bin', 'docconv'), ['--help'], prefix);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: docconv <command> \[options\]$/m);
      const balance = await shell(join(prefix, 'bin', 'docconv'), ['balance'], prefix, env);
      expect(balance.code).toBe(0);
      expect(balance.stdout).toMatch(/^\d+ points \(\$\d+\.\d+\)\n$/);
    } finally {
      await rm(prefix, { recursive: true, force: true });
    }
  }, 120_000);

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

  it('without a terminal and without --yes, upload --confirm and confirm refuse and leave the job pending; --yes confirms', async () => {
    await writeFile(join(folder, 'note.md'), '# A note\n');
    const result = await run(['upload', 'note.md', '--confirm']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no terminal to ask/);
    expect(result.stderr).toMatch(/--yes/);
    const pendingId = /^Job:\s+([0-9a-f-]{36})$/m.exec(result.stdout)![1];
    const quoted = Number(/^Cost:\s+(\d+) points/m.exec(result.stdout)![1]);
    const job = (await t.http.get(`/api/v1/jobs/${pendingId}`).set('X-API-Key', key.key).expect(200)).body;
    expect(job.status).toBe('pending');
    expect(job.quoted_points).toBe(quoted);

    // `confirm` charges too: it shows the quote and asks, and without a terminal it needs --yes.
    const refused = await run(['confirm', pendingId]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain(`Job ${pendingId} (note.md) costs ${quoted} points`);
    expect(refused.stderr).toMatch(/no terminal to ask/);
    expect(refused.stderr).toContain(`docconv confirm ${pendingId} --yes`);
    const still = (await t.http.get(`/api/v1/jobs/${pendingId}`).set('X-API-Key', key.key).expect(200)).body;
    expect(still.status).toBe('pending');
    const confirmed = await run(['confirm', pendingId, '--yes']);
    expect(confirmed.stderr).toBe('');
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toContain(`Confirmed job ${pendingId}`);
    const charged = (await t.http.get(`/api/v1/jobs/${pendingId}`).set('X-API-Key', key.key).expect(200)).body;
    expect(charged.status).not.toBe('pending');
    expect(charged.cost_points).toBe(quoted);
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
    expect(saved).toEqual({ url, apiKey: expect.stringMatching(/^dcv_/), keyId: expect.any(String) });

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

  /** Someone on this machine with a configuration of their own and no key in the environment. */
  async function person(tag: string) {
    const home = await mkdtemp(join(folder, `${tag}-`));
    const personEnv = { DOCCONV_API_KEY: '', DOCCONV_URL: '', XDG_CONFIG_HOME: home };
    const email = uniqueEmail(tag);
    const password = 'correct horse battery';
    return {
      email,
      env: personEnv,
      login: (...extra: string[]) =>
        run(['login', '--email', email, '--url', url, ...extra], { ...personEnv, DOCCONV_PASSWORD: password }),
      saved: async () =>
        JSON.parse(await readFile(join(home, 'docconv', 'config.json'), 'utf8')) as {
          url: string;
          apiKey: string;
          keyId: string;
        },
      /** A session of the person's own, as the web console would hold. */
      session: async () =>
        (await t.http.post('/api/v1/auth/login').send({ email, password }).expect(200)).body.access_token as string,
    };
  }

  async function activeKeys(jwt: string): Promise<{ id: string; name: string; prefix: string }[]> {
    const keys = (await t.http.get('/api/v1/keys').set('Authorization', `Bearer ${jwt}`).expect(200)).body;
    return (keys as { id: string; name: string; prefix: string; is_active: boolean }[]).filter((k) => k.is_active);
  }

  const jobIdIn = (output: string) => /^Job:\s+([0-9a-f-]{36})$/m.exec(output)![1];

  it('login three times keeps one active key for this machine, and that key works', async () => {
    const me = await person('cli-relogin');
    const signedUp = await me.login('--signup');
    expect({ code: signedUp.code, stderr: signedUp.stderr }).toEqual({ code: 0, stderr: '' });
    const first = await me.saved();
    for (let i = 0; i < 3; i++) {
      const again = await me.login();
      expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' });
      expect(again.stdout).toContain(`Kept this machine's API key ${first.apiKey.slice(0, 8)}`);
    }
    expect(await me.saved()).toEqual(first);
    const active = await activeKeys(await me.session());
    expect(active.map((k) => [k.id, k.name])).toEqual([[first.keyId, `docconv CLI on ${hostname()}`]]);
    const balance = await run(['balance'], me.env);
    expect(balance.code).toBe(0);
    expect(balance.stdout).toMatch(/^\d+ points \(\$\d+\.\d+\)\n$/);
  });

  it('login replaces a saved key that stopped working and deactivates the machine’s other keys, not the rest', async () => {
    const me = await person('cli-rekey');
    expect((await me.login('--signup')).code).toBe(0);
    const old = await me.saved();
    const jwt = await me.session();
    const make = async (name: string) =>
      (await t.http.post('/api/v1/keys').set('Authorization', `Bearer ${jwt}`).send({ name }).expect(201)).body as {
        id: string;
        prefix: string;
      };
    // A key an older CLI left behind on this machine, and a key the person made for a program.
    const leftover = await make(`docconv CLI on ${hostname()}`);
    const program = await make('my program');
    await t.http.delete(`/api/v1/keys/${old.keyId}`).set('Authorization', `Bearer ${jwt}`).expect(200);

    const again = await me.login();
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' });
    const now = await me.saved();
    expect(now.keyId).not.toBe(old.keyId);
    expect(again.stdout).toContain(`API key ${now.apiKey.slice(0, 8)}`);
    expect(again.stdout).toContain(`Deactivated this machine's earlier API key ${leftover.prefix}…`);
    const active = await activeKeys(jwt);
    expect(active.map((k) => k.id).sort()).toEqual([now.keyId, program.id].sort());
    expect((await run(['balance'], me.env)).code).toBe(0);
  });

  it('a new account’s first upload without --model uses its free basic pages: not refused, charged 0', async () => {
    const me = await person('cli-first');
    expect((await me.login('--signup')).code).toBe(0);
    await writeFile(join(folder, 'first.pdf'), await makePdf(['The first page of a first upload.', 'Page two.']));
    const result = await run(['upload', 'first.pdf', '--confirm', '--yes', '--wait', '--out', 'first.md'], me.env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `Using the basic model: ${FREE_PAGES_PER_MONTH} free pages left this month (--model premium for the premium engines)\n`,
    );
    expect(result.stdout).toMatch(/^Free pages:\s+2$/m);
    const { apiKey } = await me.saved();
    const job = (
      await t.http
        .get(`/api/v1/jobs/${jobIdIn(result.stdout)}`)
        .set('X-API-Key', apiKey)
        .expect(200)
    ).body;
    expect(job).toMatchObject({ status: 'done', ocr_model: 'basic', cost_points: 0 });
    const account = (await t.http.get('/api/v1/account').set('X-API-Key', apiKey).expect(200)).body;
    expect(account.free_pages).toMatchObject({ used: 2, left: FREE_PAGES_PER_MONTH - 2 });
    expect(await readFile(join(folder, 'first.md'), 'utf8')).toContain('The first page of a first upload.');
  });

  it('with no free pages left the default is premium, and a shortfall suggests --model basic only for premium', async () => {
    const user = await signup(t.http, 'cli-short');
    const as = { DOCCONV_API_KEY: (await createKey(t.http, user, { rate_limit_rpm: 100_000 })).key };
    // A pending basic preview holds every free page of the month.
    const hundred = Array.from({ length: FREE_PAGES_PER_MONTH }, (_, i) => `Page ${i + 1} of the held pages.`);
    await writeFile(join(folder, 'hundred.pdf'), await makePdf(hundred));
    const held = await run(['upload', 'hundred.pdf', '--model', 'basic'], as);
    expect(held.code).toBe(0);
    expect(held.stdout).toMatch(new RegExp(`^Free pages:\\s+${FREE_PAGES_PER_MONTH}$`, 'm'));
    const pricing = (await t.http.get('/api/v1/pricing').expect(200)).body;
    await writeFile(join(folder, 'one.pdf'), await makePdf(['One page.']));

    const onBasic = await run(['upload', 'one.pdf', '--model', 'basic', '--confirm', '--yes'], as);
    expect(onBasic.code).toBe(1);
    expect(onBasic.stderr).toContain('(402)');
    expect(onBasic.stderr).not.toContain('--model basic');
    expect(onBasic.stderr).toContain(
      pricing.payments.available
        ? `\`docconv confirm ${jobIdIn(onBasic.stdout)} --yes\``
        : 'Ask the service’s operator for points (it sells no credits).',
    );

    const byDefault = await run(['upload', 'one.pdf', '--confirm', '--yes'], as);
    expect(byDefault.code).toBe(1);
    expect(byDefault.stdout).not.toContain('Using the basic model');
    expect(byDefault.stdout).toMatch(/^Model:\s+premium/m);
    expect(byDefault.stderr).toContain('(402)');
    expect(byDefault.stderr).toContain(
      `The basic model costs less (${pricing.basic.page} points a page instead of ${pricing.premium.page}): ` +
        'upload the files again with --model basic.',
    );
  });

  it('a job that ends in error names docconv retry and refund, and both commands work', async () => {
    const account = (await t.http.get('/api/v1/account').set('X-API-Key', key.key).expect(200)).body;
    await t.app
      .get(DataSource)
      .query('UPDATE users SET points_balance = points_balance + 1000 WHERE id = $1', [account.user_id]);
    const png = await makeTextPng('truncated');
    await writeFile(join(folder, 'cut.png'), png.subarray(0, Math.floor(png.length / 2)));
    const result = await run([
      'upload',
      'cut.png',
      '--model',
      'basic',
      '--confirm',
      '--yes',
      '--wait',
      '--out',
      'cut.md',
    ]);
    expect(result.code).toBe(1);
    const cut = jobIdIn(result.stdout);
    expect(result.stderr).toContain(
      `Run it again, free: docconv retry ${cut}\nOr get its points back: docconv refund ${cut}`,
    );
    expect(result.stderr).not.toMatch(API_CALL);
    const shown = await run(['job', cut]);
    expect(shown.stdout).toContain(`yes: docconv retry ${cut} (free) or docconv refund ${cut}`);

    const retried = await run(['retry', cut]);
    expect({ code: retried.code, stderr: retried.stderr }).toEqual({ code: 0, stderr: '' });
    expect(retried.stdout).toBe(`Job ${cut} is queued again, free. Follow it with: docconv job ${cut}\n`);
    const failedAgain = await waitForJob(t.http, key.key, cut, ['error']);
    expect(failedAgain.retry_count).toBe(1);

    const refunded = await run(['refund', cut]);
    expect({ code: refunded.code, stderr: refunded.stderr }).toEqual({ code: 0, stderr: '' });
    expect(refunded.stdout).toMatch(
      new RegExp(`^Refunded ${Number(failedAgain.cost_points)} points \\(.*\\) for job ${cut}\\.\n$`),
    );
    const twice = await run(['refund', cut]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('See where the job stands with `docconv job <job_id>`.');
  });
});
