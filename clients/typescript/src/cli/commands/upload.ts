import { parseArgs } from 'node:util';
import type { DocconvClient } from '../../client';
import { DocconvError } from '../../errors';
import type { DeliveredPage } from '../../events';
import { confirm, downloadFile, type OcrEngine, type OcrModel, type PageFurniture, type HtmlContent } from '../../jobs';
import { waitForJob } from '../../wait';
import { uploadFiles } from '../../node-upload';
import { oneOf, parseCommandLine, positiveInteger, single } from '../args';
import { formatPoints, formatPreview } from '../format';
import { RefusalInContext, type HintContext } from '../hints';
import { defaultModel, whyBasicCostsLess } from '../models';
import { fetchResult, saveResult } from '../output';
import { createProgressDisplay } from '../progress';
import { askYesNo } from '../prompt';
import { CliFailure, UsageError, type Terminal } from '../terminal';
import { connect } from './connect';
import { retryOrRefund } from './job-actions';

const MODELS: readonly OcrModel[] = ['basic', 'premium'];
const ENGINES: readonly OcrEngine[] = ['tesseract', 'easyocr', 'rapidocr'];
const FURNITURE: readonly PageFurniture[] = ['drop', 'keep', 'separate'];
const HTML_CONTENT: readonly HtmlContent[] = ['main', 'full'];

const WAIT_OPTIONS = `  --wait                 show progress until the job is done, then write the Markdown
  --out, -o <path>       with --wait: write the Markdown to this file instead of stdout,
                         or into this folder (one that exists, or a path ending with /)
                         under the job's title, e.g. out/report.md
  --follow               like --wait, and each page of the Markdown as soon as it is final:
                         written to stdout as it comes, or with --out named as it comes
  --interval <ms>        progress follows the job's events; when they break off, time
                         before reading the job again (default 5000)`;

export const UPLOAD_USAGE = `Usage: docconv upload <files…> [options]

Uploads files and prints what they cost. Nothing is charged until the job is confirmed.

Options:
  --model basic|premium  OCR model (default: basic while the account has free pages left
                         this month, which apply to basic only; premium once they are used)
  --engine <engine>      tesseract, easyocr or rapidocr (default: the service's choice)
  --columns <a,b>        column names for table extraction
  --prompt <text>        extra instructions for the model
  --refine               layout refinement by a language model (charged per page)
  --furniture drop|keep|separate
                         running heads and feet, page numbers, headers and footers: left
                         out (default), kept in the Markdown, or listed apart in the
                         structured result (docconv download --format json)
  --html-content main|full
                         web pages: the article without the site around it (default), or
                         everything the page shows
  --confirm              confirm after the preview; asks first unless --yes
  --yes, -y              confirm without asking (needed when there is no terminal to ask on)
${WAIT_OPTIONS}`;

export const CONFIRM_USAGE = `Usage: docconv confirm <job_id> [--yes] [--wait | --follow] [--out <file or folder/>]

Confirms a pending job: shows the quoted price, asks, then charges it and queues the job.

Options:
  --yes, -y              confirm without asking (needed when there is no terminal to ask on)
${WAIT_OPTIONS}`;

interface WaitRequest {
  wait: boolean;
  /** Each page of the result as it is delivered, final (`--follow`). */
  follow: boolean;
  out?: string;
  intervalMs?: number;
}

/** The shared --wait/--out/--interval checks: --out and --interval only mean something with --wait. */
function waitRequest(
  values: { wait?: boolean; follow?: boolean; out?: string; interval?: string },
  usage: string,
): WaitRequest {
  const wait = Boolean(values.wait || values.follow);
  if (!wait && values.out !== undefined) throw new UsageError('--out needs --wait', usage);
  if (!wait && values.interval !== undefined) throw new UsageError('--interval needs --wait', usage);
  return {
    wait,
    follow: Boolean(values.follow),
    out: values.out,
    intervalMs: positiveInteger(values.interval, '--interval', usage),
  };
}

/**
 * Where messages go: stdout, unless the Markdown itself is going to stdout, in which case
 * everything else goes to stderr so the output can be piped as is.
 */
function messageStream(request: WaitRequest, term: Terminal): NodeJS.WriteStream {
  return request.wait && request.out === undefined ? term.stderr : term.stdout;
}

/** `docconv upload`: preview, then (with --confirm) confirm, then (with --wait) wait and write the Markdown. */
export async function uploadCommand(args: string[], term: Terminal): Promise<void> {
  const { values, positionals } = parseCommandLine(UPLOAD_USAGE, () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        model: { type: 'string' },
        engine: { type: 'string' },
        columns: { type: 'string' },
        prompt: { type: 'string' },
        refine: { type: 'boolean' },
        furniture: { type: 'string' },
        'html-content': { type: 'string' },
        confirm: { type: 'boolean' },
        yes: { type: 'boolean', short: 'y' },
        wait: { type: 'boolean' },
        follow: { type: 'boolean' },
        out: { type: 'string', short: 'o' },
        interval: { type: 'string' },
      },
    }),
  );
  if (positionals.length === 0) throw new UsageError('name at least one file to upload', UPLOAD_USAGE);
  const request = waitRequest(values, UPLOAD_USAGE);
  if (request.wait && !values.confirm)
    throw new UsageError(`${values.follow ? '--follow' : '--wait'} needs --confirm`, UPLOAD_USAGE);
  const model = oneOf(values.model, MODELS, '--model', UPLOAD_USAGE);
  const options = {
    engine: oneOf(values.engine, ENGINES, '--engine', UPLOAD_USAGE),
    columns: values.columns,
    prompt: values.prompt,
    refine: values.refine,
    pageFurniture: oneOf(values.furniture, FURNITURE, '--furniture', UPLOAD_USAGE),
    htmlContent: oneOf(values['html-content'], HTML_CONTENT, '--html-content', UPLOAD_USAGE),
  };

  const client = await connect(term);
  const info = messageStream(request, term);
  let chosen = model;
  if (chosen === undefined) {
    const choice = defaultModel((await client.getAccount()).free_pages?.left ?? 0, options.engine);
    if (choice.note) info.write(`${choice.note}\n`);
    chosen = choice.model;
  }
  const preview = await uploadFiles(client, positionals, { ...options, model: chosen });
  info.write(`${formatPreview(preview)}\n`);
  if (!values.confirm) {
    info.write(`\nNothing charged yet. Confirm with: docconv confirm ${preview.job_id} --wait\n`);
    return;
  }
  await approve(preview.job_id, preview.cost.points, Boolean(values.yes), term);
  const job = {
    jobId: preview.job_id,
    model: preview.cost.ocr_model,
    pagesAndImages: preview.cost.pages + preview.cost.image_count,
  };
  await confirmAndWait(client, job, request, term);
}

/** `docconv confirm <job_id>`: confirms a pending job, then (with --wait) waits and writes the Markdown. */
export async function confirmCommand(args: string[], term: Terminal): Promise<void> {
  const { values, positionals } = parseCommandLine(CONFIRM_USAGE, () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        yes: { type: 'boolean', short: 'y' },
        wait: { type: 'boolean' },
        follow: { type: 'boolean' },
        out: { type: 'string', short: 'o' },
        interval: { type: 'string' },
      },
    }),
  );
  const jobId = single(positionals, 'job id', CONFIRM_USAGE);
  const request = waitRequest(values, CONFIRM_USAGE);
  const client = await connect(term);
  const job = await client.getJob(jobId);
  // A job that is not pending is left to the service, which says why it cannot be confirmed.
  if (job.status === 'pending') {
    messageStream(request, term).write(`Job ${jobId} (${job.filename}) costs ${formatPoints(job.quoted_points)}.\n`);
    await approve(jobId, job.quoted_points, Boolean(values.yes), term);
  }
  await confirmAndWait(client, { jobId, model: job.ocr_model, pagesAndImages: job.total_pages }, request, term);
}

/**
 * Asks before spending points, unless --yes. Without a terminal there is nobody to ask, so
 * the CLI refuses rather than charging silently; the job stays pending either way.
 */
async function approve(jobId: string, points: number, yes: boolean, term: Terminal): Promise<void> {
  if (yes) return;
  const later = `The job stays pending: confirm it later with \`docconv confirm ${jobId} --yes\`.`;
  if (!term.stdin.isTTY) {
    throw new CliFailure(
      `Not confirmed: there is no terminal to ask whether to spend ${formatPoints(points)}.`,
      `Add --yes to confirm without asking. ${later}`,
      2,
    );
  }
  const question = `Confirm job ${jobId} for ${formatPoints(points)}?`;
  if (!(await askYesNo(question, term.stdin, term.stderr))) throw new CliFailure('Not confirmed.', later);
}

/** The job a confirmation is for, as far as a refusal's hint needs it. */
interface JobToConfirm {
  jobId: string;
  model: string;
  pagesAndImages: number;
}

/**
 * What the hint of a refused confirmation needs: the job, and when credits are short, whether the
 * basic model would cost less and whether the service sells credits. Without those facts (the
 * service did not give them) the hint is the general one.
 */
async function refusalContext(client: DocconvClient, job: JobToConfirm, error: DocconvError): Promise<HintContext> {
  if (error.code !== 'insufficient_credits') return { jobId: job.jobId };
  try {
    const [pricing, account] = await Promise.all([client.getPricing(), client.getAccount()]);
    return {
      jobId: job.jobId,
      basicInstead: whyBasicCostsLess(job, pricing, account.free_pages?.left ?? 0),
      paymentsAvailable: pricing.payments?.available,
    };
  } catch {
    return { jobId: job.jobId };
  }
}

/** Confirms the job and, when asked to, follows it to the end and writes its Markdown. */
async function confirmAndWait(
  client: DocconvClient,
  toConfirm: JobToConfirm,
  request: WaitRequest,
  term: Terminal,
): Promise<void> {
  const info = messageStream(request, term);
  const { jobId } = toConfirm;
  let confirmation: Awaited<ReturnType<typeof confirm>>;
  try {
    confirmation = await confirm(client, jobId);
  } catch (error) {
    if (!(error instanceof DocconvError)) throw error;
    throw new RefusalInContext(error, await refusalContext(client, toConfirm, error));
  }
  info.write(`Confirmed job ${jobId}; balance now ${formatPoints(confirmation.remaining_points)}.\n`);
  if (!request.wait) {
    info.write(`Follow it with: docconv job ${jobId}\n`);
    return;
  }

  const progress = createProgressDisplay(info);
  // Followed: the pages to standard output as they come (they are the Markdown), or named as they come.
  const followed: string[] = [];
  const onPage = request.follow
    ? (page: DeliveredPage) => {
        followed.push(page.markdown);
        if (request.out === undefined) term.stdout.write(page.markdown);
        else info.write(`${page.page === null ? page.file : `${page.file}, page ${page.page}`}: final\n`);
      }
    : undefined;
  let job: Awaited<ReturnType<typeof waitForJob>>;
  try {
    job = await waitForJob(client, jobId, {
      onProgress: (j) => progress.update(j),
      intervalMs: request.intervalMs,
      onPage,
    });
  } catch (error) {
    // The job is paid for and goes on: say how to fetch its result once it is done.
    if (!(error instanceof DocconvError)) throw error;
    throw new CliFailure(
      `Stopped waiting for job ${jobId}: ${error.detail}`,
      `The job goes on. See where it stands with: docconv job ${jobId}\nSave its result once done with: docconv download ${jobId} --out ${request.out ?? '<file>'}`,
    );
  } finally {
    progress.end();
  }
  if (job.status !== 'done') {
    throw new CliFailure(
      `Job ${jobId} ended ${job.status}${job.error_log ? `: ${job.error_log}` : '.'}`,
      job.refundable ? retryOrRefund(jobId) : undefined,
    );
  }

  const result = { jobId, format: 'md' as const };
  const file = await fetchResult(result, request.out, () => downloadFile(client, jobId, 'md'));
  if (request.out === undefined) {
    const shown = followed.join('');
    // Followed pages are the Markdown already written; what they do not hold follows them.
    const text = Buffer.from(file.bytes).toString('utf8');
    if (!request.follow) term.stdout.write(file.bytes);
    else if (text.startsWith(shown)) term.stdout.write(text.slice(shown.length));
    else info.write(`The result differs from the pages followed: fetch it with docconv download ${jobId}\n`);
    return;
  }
  const written = await saveResult(result, file, request.out);
  info.write(`Wrote ${written} (${file.bytes.byteLength} bytes).\n`);
}
