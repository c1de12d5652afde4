import { DocconvError } from '../errors';
import {
  BALANCE_USAGE,
  balanceCommand,
  JOB_USAGE,
  jobCommand,
  JOBS_USAGE,
  jobsCommand,
  USAGE_USAGE,
  usageCommand,
} from './commands/account';
import { BUY_USAGE, buyCommand } from './commands/buy';
import { CHUNKS_USAGE, chunksCommand } from './commands/chunks';
import { CONVERT_USAGE, convertCommand } from './commands/convert';
import { DOWNLOAD_USAGE, downloadCommand } from './commands/download';
import { ENGINES_USAGE, enginesCommand } from './commands/engines';
import { REFUND_USAGE, refundCommand, RETRY_USAGE, retryCommand } from './commands/job-actions';
import { LOGIN_USAGE, loginCommand } from './commands/login';
import { CONFIRM_USAGE, confirmCommand, UPLOAD_USAGE, uploadCommand } from './commands/upload';
import { hintFor, RefusalInContext, type HintContext } from './hints';
import { CliFailure, UsageError, type Terminal } from './terminal';

interface Command {
  summary: string;
  usage: string;
  run(args: string[], term: Terminal): Promise<void>;
}

const COMMANDS: Record<string, Command> = {
  login: { summary: "log in (or --signup) and save this machine's API key", usage: LOGIN_USAGE, run: loginCommand },
  upload: {
    summary: 'upload files, see the price, optionally confirm and wait',
    usage: UPLOAD_USAGE,
    run: uploadCommand,
  },
  confirm: { summary: 'confirm a pending job, optionally wait for it', usage: CONFIRM_USAGE, run: confirmCommand },
  download: {
    summary: "download a finished job's Markdown, its blocks as JSON, or a zip with its images",
    usage: DOWNLOAD_USAGE,
    run: downloadCommand,
  },
  chunks: {
    summary: "a finished job's result as chunks ready to embed (JSON Lines)",
    usage: CHUNKS_USAGE,
    run: chunksCommand,
  },
  convert: { summary: 'convert a finished job to docx, pptx, hwpx or xlsx', usage: CONVERT_USAGE, run: convertCommand },
  jobs: { summary: 'list your jobs', usage: JOBS_USAGE, run: jobsCommand },
  job: { summary: 'show one job', usage: JOB_USAGE, run: jobCommand },
  retry: { summary: 'run a job that ended in error again, free', usage: RETRY_USAGE, run: retryCommand },
  refund: { summary: 'get back the points of a job that ended in error', usage: REFUND_USAGE, run: refundCommand },
  balance: { summary: 'print your balance', usage: BALANCE_USAGE, run: balanceCommand },
  buy: { summary: 'buy credits: prints the Stripe page to pay on', usage: BUY_USAGE, run: buyCommand },
  usage: { summary: 'show usage per day', usage: USAGE_USAGE, run: usageCommand },
  engines: {
    summary: 'show the input formats, OCR engines and speech model the service runs',
    usage: ENGINES_USAGE,
    run: enginesCommand,
  },
};

export const MAIN_USAGE = `Usage: docconv <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(9)}${command.summary}`)
  .join('\n')}

Run \`docconv <command> --help\` for a command's options.
The service and key come from DOCCONV_URL and DOCCONV_API_KEY, else from \`docconv login\`.
Exit status: 0 done, 1 failed, 2 wrong usage.`;

/** Exit statuses: 0 done, 1 failed (the service or the job said no), 2 wrong usage. */
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

function wantsHelp(args: string[]): boolean {
  const options = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  return options.includes('--help') || options.includes('-h');
}

/** Runs one command line and returns the exit status; every error is printed here, once. */
export async function run(argv: string[], term: Terminal): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    (name === undefined ? term.stderr : term.stdout).write(`${MAIN_USAGE}\n`);
    return name === undefined ? EXIT_USAGE : 0;
  }
  const command = COMMANDS[name];
  if (!command) return report(new UsageError(`unknown command ${name}`, MAIN_USAGE), term);
  if (wantsHelp(args)) {
    term.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    await command.run(args, term);
    return 0;
  } catch (error) {
    return report(error, term);
  }
}

/** Prints an error for a person: what went wrong, the service's detail, and what to do about it. */
function report(error: unknown, term: Terminal): number {
  const print = (line: string): boolean => term.stderr.write(`${line}\n`);
  if (error instanceof UsageError) {
    print(`docconv: ${error.message}`);
    if (error.usage) print(`${error.usage.split('\n')[0]}\nRun with --help for the options.`);
    return EXIT_USAGE;
  }
  if (error instanceof CliFailure) {
    print(`docconv: ${error.message}`);
    if (error.hint) print(error.hint);
    return error.exitCode;
  }
  if (error instanceof RefusalInContext) return reportApiError(error.error, error.context, print);
  if (error instanceof DocconvError) return reportApiError(error, {}, print);
  print(`docconv: ${error instanceof Error ? error.message : String(error)}`);
  return EXIT_FAILED;
}

/** The service's refusal: its title, status and detail, each field at fault, then the hint that fits. */
function reportApiError(error: DocconvError, context: HintContext, print: (line: string) => boolean): number {
  print(`docconv: ${error.title}${error.status > 0 ? ` (${error.status})` : ''}: ${error.detail}`);
  for (const field of error.errors) print(`  ${field.field}: ${field.message}`);
  const hint = hintFor(error, context);
  if (hint) print(hint);
  return EXIT_FAILED;
}
