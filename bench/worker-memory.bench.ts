import { readFileSync } from 'node:fs';
import { apiWithWorker, previewJob, runJobs, table, textPdf } from './support';

/** Peak resident memory (VmHWM) of a process, in MB, from /proc. */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/**
 * The worker's peak memory on a 1,000-page text PDF job: a real worker process (one job at a
 * time) takes the job from the queue; its peak resident set is read from /proc when it is done.
 */
export async function benchWorkerMemory(): Promise<string> {
  const pages = 1_000;
  const pdf = await textPdf(pages);
  const stack = await apiWithWorker({ WORKER_CONCURRENCY: '1' });
  try {
    const job = await previewJob(stack, pdf, 'application/pdf');
    const idleRss = peakRssMb(stack.worker.pid!);
    const { seconds, failed } = await runJobs(stack, [job.id], 300);
    return table('Worker memory on a 1,000-page text PDF job (one worker process, concurrency 1)', [
      {
        job: `${pages} pages, ${failed.length === 0 ? 'done' : 'failed'}`,
        'time (s)': seconds.toFixed(1),
        'pages/s': (pages / seconds).toFixed(0),
        'worker peak RSS before the job (MB)': idleRss.toFixed(0),
        'worker peak RSS (MB)': peakRssMb(stack.worker.pid!).toFixed(0),
      },
    ]);
  } finally {
    await stack.close();
  }
}
