import { parseArgs } from 'node:util';
import { unwrap } from '../../client';
import { parseCommandLine, single } from '../args';
import { formatPoints } from '../format';
import type { Terminal } from '../terminal';
import { connect } from './connect';

export const RETRY_USAGE = `Usage: docconv retry <job_id>

Runs a job that ended in error again, free (a few times at most). Follow it with
\`docconv job <job_id>\`.`;

export const REFUND_USAGE = `Usage: docconv refund <job_id>

Gives back the points a job that ended in error was charged. It cannot be retried after.`;

/** What to type about a job that ended in error and can be retried or refunded. */
export function retryOrRefund(jobId: string): string {
  return `Run it again, free: docconv retry ${jobId}\nOr get its points back: docconv refund ${jobId}`;
}

/** `docconv retry <job_id>`: the failed job is queued again. */
export async function retryCommand(args: string[], term: Terminal): Promise<void> {
  const { positionals } = parseCommandLine(RETRY_USAGE, () => parseArgs({ args, allowPositionals: true, options: {} }));
  const jobId = single(positionals, 'job id', RETRY_USAGE);
  const client = await connect(term);
  await unwrap(
    client.api.POST('/api/v1/jobs/{job_id}/action', { params: { path: { job_id: jobId } }, body: { action: 'retry' } }),
  );
  term.stdout.write(`Job ${jobId} is queued again, free. Follow it with: docconv job ${jobId}\n`);
}

/** `docconv refund <job_id>`: the failed job's points back to the balance. */
export async function refundCommand(args: string[], term: Terminal): Promise<void> {
  const { positionals } = parseCommandLine(REFUND_USAGE, () =>
    parseArgs({ args, allowPositionals: true, options: {} }),
  );
  const jobId = single(positionals, 'job id', REFUND_USAGE);
  const client = await connect(term);
  const refund = await unwrap(
    client.api.POST('/api/v1/jobs/{job_id}/action', {
      params: { path: { job_id: jobId } },
      body: { action: 'refund' },
    }),
  );
  const points = 'points' in refund ? refund.points : 0;
  term.stdout.write(`Refunded ${formatPoints(points)} for job ${jobId}.\n`);
}
