import type { Job } from '../normalize';

const BAR_WIDTH = 30;

/** Shows a job's progress while the CLI waits for it. */
export interface ProgressDisplay {
  /** Called with each changed job record. */
  update(job: Job): void;
  /** Called once the wait is over, to leave the terminal on a fresh line. */
  end(): void;
}

/** "12/30 pages, 0/1 files" (the pages part is left out for jobs without pages, such as audio). */
export function describeProgress(job: Job): string {
  const parts = [`${job.done_files}/${job.total_files} files`];
  if (job.media_duration_seconds > 0)
    parts.unshift(`${job.done_media_seconds}/${job.media_duration_seconds} s of media`);
  if (job.total_pages > 0) parts.unshift(`${job.done_pages}/${job.total_pages} pages`);
  return parts.join(', ');
}

/** The share of the work done: from pages when the job has pages, else media seconds, else files. */
function fractionDone(job: Job): number {
  if (job.status === 'done') return 1;
  const [done, total] =
    job.total_pages > 0
      ? [job.done_pages, job.total_pages]
      : job.media_duration_seconds > 0
        ? [job.done_media_seconds, job.media_duration_seconds]
        : [job.done_files, job.total_files];
  return total > 0 ? Math.min(1, done / total) : 0;
}

/** `[#########.....................]  30%` */
export function renderBar(fraction: number, width = BAR_WIDTH): string {
  const filled = Math.round(fraction * width);
  const percent = `${Math.round(fraction * 100)}%`.padStart(4);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}`;
}

/**
 * A bar redrawn in place with `\r` on a terminal; one plain line per change otherwise, so
 * logs and pipes get a readable history instead of control characters.
 */
export function createProgressDisplay(stream: NodeJS.WriteStream): ProgressDisplay {
  if (!stream.isTTY) {
    return {
      update: (job) => void stream.write(`${job.status}: ${describeProgress(job)}\n`),
      end: () => undefined,
    };
  }
  let drawn = false;
  return {
    update(job) {
      drawn = true;
      stream.write(`\r\x1b[2K${renderBar(fractionDone(job))} ${job.status}: ${describeProgress(job)}`);
    },
    end() {
      if (drawn) stream.write('\n');
    },
  };
}
