import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { renderPage } from '../libs/documents/src/pdf/render-page';
import { apiWithWorker, BENCH_DATA, previewJob, runJobs, scanPdf, table, textPdf, type BenchStack } from './support';

/** Pages of the scanned PDF. */
const SCANNED_PAGES = 40;
/** The other tenant's backlog: one job of a text PDF of this many pages. */
const BACKLOG_PAGES = 10_000;

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

/**
 * The stack once every worker takes parse messages and two one-page scans went through at once,
 * one per slot where there are two: timing starts with the OCR engines loaded, as in a worker
 * that has run for a while.
 */
async function warmStack(...options: Parameters<typeof apiWithWorker>): Promise<BenchStack> {
  const stack = await apiWithWorker(...options);
  await stack.workersReady(); // a document is spread over the slots on the queue when it starts
  const scan = await scannedPdf(1);
  const warm = [await previewJob(stack, scan, 'application/pdf'), await previewJob(stack, scan, 'application/pdf')];
  const { failed } = await runJobs(
    stack,
    warm.map((job) => job.id),
  );
  if (failed.length > 0) throw new Error('a one-page scan did not end done while the stack warmed');
  return stack;
}

/** How one large job is run: worker processes, and their environment. */
const SPREADS: { label: string; workers: number; env: Record<string, string> }[] = [
  { label: '1 worker × 1 slot (s)', workers: 1, env: { WORKER_CONCURRENCY: '1' } },
  { label: '2 workers × 1 slot, read whole (s)', workers: 2, env: { WORKER_CONCURRENCY: '1', FANOUT_MIN_PAGES: '0' } },
  { label: '2 workers × 1 slot, page ranges (s)', workers: 2, env: { WORKER_CONCURRENCY: '1' } },
];

/**
 * One large document as one job on one worker process with one slot (one core), then on two such
 * processes (two cores): read whole by one of them, as before page ranges, and spread over both
 * in page ranges. The speed-up is the first time over the last.
 */
async function spreadRows(): Promise<Record<string, string>[]> {
  const inputs = [
    { name: 'generated text PDF', path: await textPdf(1_000) },
    { name: 'generated scanned PDF (OCR, premium)', path: await scannedPdf(SCANNED_PAGES) },
  ];
  const rows: Record<string, string>[] = [];
  for (const input of inputs) {
    const row: Record<string, string> = { input: input.name };
    const seconds: number[] = [];
    for (const spread of SPREADS) {
      const stack = await warmStack(spread.env, { workers: spread.workers });
      try {
        const job = await previewJob(stack, input.path, 'application/pdf');
        row.input = `${input.name}, ${job.pages} pages, one job`;
        const run = await runJobs(stack, [job.id], 900);
        if (run.failed.length > 0) throw new Error(`${input.name} did not end done`);
        seconds.push(run.seconds);
        row[spread.label] = run.seconds.toFixed(1);
      } finally {
        await stack.close();
      }
    }
    row['speed-up'] = `${(seconds[0] / seconds[SPREADS.length - 1]).toFixed(2)}×`;
    rows.push(row);
  }
  return rows;
}

/**
 * How long one tenant's one-page job waits behind another tenant's 10,000-page job, on one worker
 * process with two slots, with fair queueing off and per user: the large job is confirmed first,
 * the one-page job once the large one's pages are being read; its wait runs from its confirm to
 * its end. The large job is cancelled once the one-page job is done.
 */
async function fairnessRows(): Promise<Record<string, string>[]> {
  const big = await textPdf(BACKLOG_PAGES);
  const small = await textPdf(1);
  const rows: Record<string, string>[] = [];
  for (const fairness of ['off', 'per-user']) {
    const stack = await warmStack({}, { apiEnv: { FAIR_QUEUEING: fairness } });
    try {
      const other = { ...stack, headers: await stack.tenant() };
      const backlog = (await previewJob(stack, big, 'application/pdf')).id;
      const one = await previewJob(other, small, 'application/pdf');
      const res = await fetch(`${stack.url}/api/v1/jobs/${backlog}/confirm`, {
        method: 'POST',
        headers: stack.headers,
      });
      if (res.status !== 200) throw new Error(`confirm of the large job answered ${res.status}`);
      // The one-page job comes while the large one is being read, its ranges queued.
      for (;;) {
        const job = (await (await fetch(`${stack.url}/api/v1/jobs/${backlog}`, { headers: stack.headers })).json()) as {
          done_pages: number;
        };
        if (job.done_pages > 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const { seconds, failed } = await runJobs(other, [one.id], 900);
      if (failed.length > 0) throw new Error('the one-page job did not end done');
      await fetch(`${stack.url}/api/v1/jobs/${backlog}/cancel`, { method: 'POST', headers: stack.headers });
      rows.push({
        'fair queueing': fairness,
        'ahead of it': `one job of ${BACKLOG_PAGES.toLocaleString('en')} pages`,
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
    table('One large job on 1 worker process and on 2 (one slot, one core each)', await spreadRows()),
    table(
      "A tenant's one-page job behind another tenant's 10,000-page job, one worker process (2 slots)",
      await fairnessRows(),
    ),
  ].join('\n\n');
}
