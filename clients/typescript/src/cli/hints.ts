import type { DocconvError } from '../errors';

/** What the command knew when the service refused it, so that the hint fits the case. */
export interface HintContext {
  /** The job the refused request was about. */
  jobId?: string;
  /**
   * Set when a confirmation was refused for want of credits, the job is premium and the basic
   * model would charge it less (`whyBasicCostsLess`): why, e.g. "100 free pages left this month".
   */
  basicInstead?: string;
  /** false when the service sells no credits (GET /pricing's `payments.available`). */
  paymentsAvailable?: boolean;
}

/** A refusal of the service together with what the command knew about it; printed as the error it holds. */
export class RefusalInContext extends Error {
  constructor(
    readonly error: DocconvError,
    readonly context: HintContext,
  ) {
    super(error.message, { cause: error });
    this.name = 'RefusalInContext';
  }
}

type Hint = string | ((error: DocconvError, context: HintContext) => string);

const LOGIN = '`docconv login --email <you@example.com>`';
const JOBS = 'Check the job id: `docconv jobs` lists yours.';
const UNREADABLE = 'Upload a file without a password in a format the service accepts: `docconv engines` lists them.';

function job(context: HintContext): string {
  return context.jobId ?? '<job_id>';
}

/** Where more credits come from: `docconv buy`, or the operator when the service sells none. */
function moreCredits(context: HintContext): string {
  if (context.paymentsAvailable === false) return 'ask the service’s operator for points (it sells no credits)';
  const then = context.jobId
    ? `then confirm the job again: \`docconv confirm ${context.jobId} --yes\``
    : 'then run the command again';
  return `buy credits with \`docconv buy <usd>\` (it prints the page to pay on), ${then}`;
}

/** A phrase as a sentence: capital first letter, full stop. */
function asSentence(text: string): string {
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

function tryLater(error: DocconvError): string {
  return error.retryAfterSeconds
    ? `Try again in ${error.retryAfterSeconds} s.`
    : 'Try again later, or raise the key’s limits on the web console’s Keys page.';
}

/**
 * What a person can do about an API error, by its problem code: the command to type or the setting
 * to change. The service's detail says what went wrong; this line says what fixes it.
 */
const HINTS: Record<string, Hint> = {
  network_error:
    'Check that the service is running and that DOCCONV_URL (or the URL saved by `docconv login`) points at it.',
  unauthorized: `Log in again with ${LOGIN}, or set DOCCONV_API_KEY to an active key.`,
  invalid_credentials: 'Check the email and password; to create the account, add --signup.',
  email_taken: 'That account exists already: log in without --signup.',
  forbidden: `The key lacks a scope this request needs: ${LOGIN} saves a key with jobs:read and jobs:write.`,
  // `--model basic` only where it helps: a premium job the basic model would charge less.
  insufficient_credits: (_, context) =>
    context.basicInstead
      ? `The basic model costs less (${context.basicInstead}): ` +
        `upload the files again with --model basic.\nOr ${moreCredits(context)}.`
      : asSentence(moreCredits(context)),
  rate_limited: tryLater,
  daily_quota_exceeded: tryLater,
  job_not_found: JOBS,
  not_found: JOBS,
  invalid_state: (_, context) => `See where the job stands with \`docconv job ${job(context)}\`.`,
  payload_too_large: 'Split the upload into smaller batches.',
  unsupported_format: UNREADABLE,
  encrypted_document: UNREADABLE,
  engine_unavailable:
    'Pick another engine with --engine (`docconv engines` lists them), or leave it out to let the service choose.',
  transcription_unavailable: 'This service transcribes no audio or video now: `docconv engines` shows what it runs.',
  refinement_unavailable: 'Upload without --refine: layout refinement is not available on this service now.',
  timeout: (_, context) => `The job is still running: follow it with \`docconv job ${job(context)}\`.`,
};

/** The hint for an API error (by its code, else by its status), fitted to what the command knew. */
export function hintFor(error: DocconvError, context: HintContext = {}): string | undefined {
  if (Object.hasOwn(HINTS, error.code)) {
    const hint = HINTS[error.code];
    return typeof hint === 'string' ? hint : hint(error, context);
  }
  return error.status >= 500 ? 'This is on the service’s side: try again shortly.' : undefined;
}
