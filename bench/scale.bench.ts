import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { renderPage } from '../libs/documents/src/pdf/render-page';
import { apiWithWorker, BENCH_DATA, previewJob, runJobs, scanPdf, table, textPdf, type BenchStack } from './support';

/** Pages of the scanned PDF. */
const SCANNED_PAGES = 40;
/** The other tenant's backlog: this many jobs of a 1,000-page text PDF. */
const BACKLOG_JOBS = 10;

/** A scan of the generated text PDF's first `pages` pages: each a 150-dpi grey picture, no text layer. */
async function scannedPdf(pages: number): Promise<string> {
  const path = join(BENCH_DATA, `scan-${pages}.pdf`);
  if (existsSync(path)) return path;
  const source = await textPdf(pages);
  const images = [];
  for (let n = 1; n <= pages; n++) images.push(await renderPage(source, n, 150));
  await scanPdf(images, path);
  return path;
}

/** The stack after a one-page job went through, so that its workers are up before anything is timed. */
async function warmStack(...options: Parameters<typeof apiWithWorker>): Promise<BenchStack> {
  const stack = await apiWithWorker(...options);
  const warm = await previewJob(stack, await textPdf(1), 'application/pdf');
  await runJobs(stack, [warm.id]);
  await new Promise((r) => setTimeout(r, 3_000)); // the other workers' start, if any
  return stack;
}

/**
 * One large document as one job, on one worker process and on two (each with a slot per core):
 * the second process speeds it up only once a document's pages are spread over workers.
 */
async function spreadRows(): Promise<Record<string, string>[]> {
  const inputs = [
    { name: 'generated text PDF', path: await textPdf(1_000) },
    { name: 'generated scanned PDF (OCR, premium)', path: await scannedPdf(SCANNED_PAGES) },
  ];
  const rows: Record<string, string>[] = [];
  for (const input of inputs) {
    const seconds: number[] = [];
    let pages = 0;
    for (const workers of [1, 2]) {
      const stack = await warmStack({}, { workers });
      try {
        const job = await previewJob(stack, input.path, 'application/pdf');
        pages = job.pages;
        const run = await runJobs(stack, [job.id], 900);
        if (run.failed.length > 0) throw new Error(`${input.name} did not end done`);
        seconds.push(run.seconds);
      } finally {
        await stack.close();
      }
    }
    rows.push({
      input: `${input.name}, ${pages} pages, one job`,
      '1 worker (s)': seconds[0].toFixed(1),
      '2 workers (s)': seconds[1].toFixed(1),
      'speed-up': (seconds[0] / seconds[1]).toFixed(2),
    });
  }
  return rows;
}

/**
 * How long one tenant's one-page job waits behind another tenant's backlog of large jobs, with
 * fair queueing off and per user: the backlog is confirmed first, then the one-page job; its wait
 * runs from its confirm to its end. The backlog is cancelled once the one-page job is done.
 */
async function fairnessRows(): Promise<Record<string, string>[]> {
  const big = await textPdf(1_000);
  const small = await textPdf(1);
  const rows: Record<string, string>[] = [];
  for (const fairness of ['off', 'per-user']) {
    const stack = await warmStack({}, { apiEnv: { FAIR_QUEUEING: fairness } });
    try {
      const other = { ...stack, headers: await stack.tenant() };
      const backlog = [];
      for (let n = 0; n < BACKLOG_JOBS; n++) backlog.push((await previewJob(stack, big, 'application/pdf')).id);
      const one = await previewJob(other, small, 'application/pdf');
      for (const id of backlog) {
        const res = await fetch(`${stack.url}/api/v1/jobs/${id}/confirm`, { method: 'POST', headers: stack.headers });
        if (res.status !== 200) throw new Error(`confirm of the backlog answered ${res.status}`);
      }
      const { seconds, failed } = await runJobs(other, [one.id], 900);
      if (failed.length > 0) throw new Error('the one-page job did not end done');
      for (const id of backlog)
        await fetch(`${stack.url}/api/v1/jobs/${id}/cancel`, { method: 'POST', headers: stack.headers });
      rows.push({
        'fair queueing': fairness,
        'backlog ahead (jobs × pages)': `${BACKLOG_JOBS} × 1,000`,
        "the other tenant's one-page job: confirm to end (s)": seconds.toFixed(1),
      });
    } finally {
      await stack.close();
    }
  }
  return rows;
}

/** Scaling: one large job over one and two worker processes, and a small job's wait behind another tenant's backlog. */
export async function benchScale(): Promise<string> {
  return [
    table('One large job on 1 and 2 worker processes (2 slots each)', await spreadRows()),
    table(
      "A tenant's one-page job behind another tenant's backlog, one worker process (2 slots)",
      await fairnessRows(),
    ),
  ].join('\n\n');
}
