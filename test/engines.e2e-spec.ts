import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { makeMixedPdf } from './support/fixtures';
import { upload, waitForJob } from './support/jobs';
import { privateStack, waitForCapabilities } from './support/private-stack';

/** The engines' Python that scripts/setup.sh installs: EasyOCR and faster-whisper with their weights. */
const PYTHON = join(__dirname, '..', '.venv-engines', 'bin', 'python');

/** The ids of the EasyOCR engine processes a worker runs. */
function easyOcrProcesses(worker: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(worker), '-f', 'easyocr_server.py'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

describe('the Python engines in a running worker', () => {
  const { stack, start } = privateStack('engines');
  let worker: number;

  beforeAll(async () => {
    expect(existsSync(PYTHON)).toBe(true); // scripts/setup.sh creates it
    stack.env.ENGINES_PYTHON = PYTHON;
    worker = (await start()).pid!;
    await waitForCapabilities(stack, (c) => c.ocr_engines.includes('easyocr') && c.transcription.available, 60_000);
    await stack.t.app
      .get(DataSource)
      .query('UPDATE users SET points_balance = 1000000 WHERE id = (SELECT user_id FROM api_keys WHERE id = $1)', [
        stack.key.id,
      ]);
  }, 300_000);

  it('reports EasyOCR as the default engine and the speech model it loaded', async () => {
    const capabilities = await waitForCapabilities(stack, (c) => c.transcription.available);
    expect(capabilities.default_ocr_engine).toBe('easyocr');
    expect(capabilities.transcription.model).toMatchObject({ name: 'faster-whisper-base', official: true });
    expect(capabilities.transcription.model?.engine).toMatch(/^faster-whisper \d+\.\d+\.\d+$/);
    const body = (await stack.t.http.get('/api/v1/capabilities').expect(200)).body as {
      engines: { name: string; status: string; version: string; languages: string[]; weights: string[] }[];
    };
    const byName = Object.fromEntries(body.engines.map((e) => [e.name, e]));
    expect(byName.easyocr).toMatchObject({
      status: 'ready',
      version: '1.7.2',
      languages: ['en'],
      weights: ['craft_mlt_25k.pth', 'english_g2.pth'],
    });
    expect(byName['faster-whisper']).toMatchObject({ status: 'ready', version: '1.2.1', weights: ['whisper-base'] });
    expect(byName['faster-whisper'].languages).toEqual(expect.arrayContaining(['en', 'ko']));

    const ready = (await stack.t.http.get('/api/v1/health/ready').expect(200)).body as {
      details: { engines: { engines: { name: string; status: string }[] } };
    };
    expect(ready.details.engines.engines.map((e) => [e.name, e.status])).toEqual([
      ['easyocr', 'ready'],
      ['faster-whisper', 'ready'],
    ]);
  });

  it('an upload without an engine is read by EasyOCR; killed mid-job, its process is restarted and the job finishes, charged once', async () => {
    const pages = Array.from({ length: 4 }, (_, i) => ({ scan: `Scanned invoice page ${i + 1}` }));
    // 150 dpi keeps EasyOCR's CPU time per page short.
    const res = await upload(stack.t.http, stack.key.key, [{ name: 'scans.pdf', content: await makeMixedPdf(pages) }], {
      dpi: '150',
    });
    expect(res.status).toBe(201);
    expect(res.body.ocr_engine).toBe('easyocr');
    await stack.t.http.post(`/api/v1/jobs/${res.body.job_id}/confirm`).set('X-API-Key', stack.key.key).expect(200);

    // Once EasyOCR has read a page, kill its process the hard way.
    for (let i = 0; i < 1_200; i++) {
      const job = (await stack.t.http.get(`/api/v1/jobs/${res.body.job_id}`).set('X-API-Key', stack.key.key)).body;
      if (job.done_pages >= 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const killed = easyOcrProcesses(worker);
    expect(killed.length).toBeGreaterThan(0);
    for (const pid of killed) process.kill(pid, 'SIGKILL');

    const job = await waitForJob(stack.t.http, stack.key.key, res.body.job_id as string, ['done', 'error'], 240_000);
    expect({ status: job.status, error: job.error_log }).toEqual({ status: 'done', error: null });
    expect(job).toMatchObject({ done_pages: 4, cost_points: res.body.cost.points });
    const spends = await stack.t.app
      .get(DataSource)
      .query("SELECT count(*)::int AS n FROM credit_transactions WHERE job_id = $1 AND type = 'spend'", [
        res.body.job_id,
      ]);
    expect(spends[0].n).toBe(1);
    expect(easyOcrProcesses(worker).some((pid) => killed.includes(pid))).toBe(false);

    const markdown = (
      await stack.t.http.get(`/api/v1/jobs/${res.body.job_id}/download`).set('X-API-Key', stack.key.key)
    ).text;
    for (let n = 1; n <= 4; n++) expect(markdown.toLowerCase()).toContain(`scanned invoice page ${n}`);
    const report = (
      await stack.t.http.get(`/api/v1/jobs/${res.body.job_id}/pages`).set('X-API-Key', stack.key.key).expect(200)
    ).body as { pages: { source: string; engine?: string }[] };
    expect(report.pages.map((p) => [p.source, p.engine])).toEqual(pages.map(() => ['ocr', 'easyocr']));
  }, 300_000);
});
