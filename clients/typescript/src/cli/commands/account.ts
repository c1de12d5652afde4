import { parseArgs } from 'node:util';
import type { JobStatus } from '../../client';
import { oneOf, parseCommandLine, positiveInteger, single } from '../args';
import { formatJob, formatJobList, formatPoints, formatUsage } from '../format';
import { UsageError, type Terminal } from '../terminal';
import { connect } from './connect';

const STATUSES: readonly JobStatus[] = ['pending', 'queued', 'processing', 'done', 'error', 'cancelled'];

export const JOBS_USAGE = `Usage: docconv jobs [--status <status>] [--limit <n>] [--cursor <cursor>]

Lists your jobs, newest first.

Options:
  --status <status>   only jobs in this state: ${STATUSES.join(', ')}
  --limit <n>         jobs per page, 1 to 100 (default 20)
  --cursor <cursor>   the next page, as printed under the previous one`;

export const JOB_USAGE = `Usage: docconv job <job_id>

Shows one job: state, progress, cost, conversions and any error.`;

export const BALANCE_USAGE = `Usage: docconv balance

Prints the account's balance in points (1 point = 0.001 USD).`;

export const USAGE_USAGE = `Usage: docconv usage [--days <n>]

Shows requests and points spent per day, today's totals and the balance.

Options:
  --days <n>   how many days back, 1 to 90 (default 30)`;

function noArguments(positionals: string[], usage: string): void {
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`, usage);
}

/** `docconv jobs`: one page of the job list, with the command for the next page when there is one. */
export async function jobsCommand(args: string[], term: Terminal): Promise<void> {
  const { values, positionals } = parseCommandLine(JOBS_USAGE, () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: { status: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' } },
    }),
  );
  noArguments(positionals, JOBS_USAGE);
  const query = {
    status: oneOf(values.status, STATUSES, '--status', JOBS_USAGE),
    limit: positiveInteger(values.limit, '--limit', JOBS_USAGE),
    cursor: values.cursor,
  };
  const page = await (await connect(term)).listJobs(query);
  term.stdout.write(`${formatJobList(page.jobs)}\n`);
  if (page.next_cursor) term.stdout.write(`\nMore: docconv jobs --cursor ${page.next_cursor}\n`);
}

/** `docconv job <id>`: the job's details. */
export async function jobCommand(args: string[], term: Terminal): Promise<void> {
  const { positionals } = parseCommandLine(JOB_USAGE, () => parseArgs({ args, allowPositionals: true, options: {} }));
  const jobId = single(positionals, 'job id', JOB_USAGE);
  term.stdout.write(`${formatJob(await (await connect(term)).getJob(jobId))}\n`);
}

/** `docconv balance`: "<points> points ($…)". */
export async function balanceCommand(args: string[], term: Terminal): Promise<void> {
  const { positionals } = parseCommandLine(BALANCE_USAGE, () =>
    parseArgs({ args, allowPositionals: true, options: {} }),
  );
  noArguments(positionals, BALANCE_USAGE);
  const account = await (await connect(term)).getAccount();
  term.stdout.write(`${formatPoints(account.points_balance)}\n`);
}

/** `docconv usage`: daily usage over the last days and today's totals. */
export async function usageCommand(args: string[], term: Terminal): Promise<void> {
  const { values, positionals } = parseCommandLine(USAGE_USAGE, () =>
    parseArgs({ args, allowPositionals: true, options: { days: { type: 'string' } } }),
  );
  noArguments(positionals, USAGE_USAGE);
  const days = positiveInteger(values.days, '--days', USAGE_USAGE);
  const client = await connect(term);
  const [rows, account] = await Promise.all([client.getUsage(days), client.getAccount()]);
  term.stdout.write(`${formatUsage(rows, account)}\n`);
}
