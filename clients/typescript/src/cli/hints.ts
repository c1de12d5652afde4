import type { DocconvError } from '../errors';

/**
 * What a person can do about an API error, by its problem code (falling back to the status).
 * The service's detail says what went wrong; this line says which command or setting fixes it.
 */
export function hintFor(error: DocconvError): string | undefined {
  switch (error.code) {
    case 'network_error':
      return 'Check that the service is running and that DOCCONV_URL (or the URL saved by `docconv login`) points at it.';
    case 'unauthorized':
      return 'Log in again with `docconv login --email <you@example.com>`, or set DOCCONV_API_KEY to an active key.';
    case 'invalid_credentials':
      return 'Check the email and password; to create the account, add --signup.';
    case 'email_taken':
      return 'That account exists already: log in without --signup.';
    case 'forbidden':
      return 'The key lacks a scope for this request: create a key with jobs:read and jobs:write (`docconv login`).';
    case 'insufficient_credits':
      return 'Top up the balance, or use the basic model (`--model basic`), which has free pages each month.';
    case 'rate_limited':
    case 'daily_quota_exceeded':
      return error.retryAfterSeconds
        ? `Try again in ${error.retryAfterSeconds} s.`
        : 'Try again later, or raise the key’s limits.';
    case 'job_not_found':
    case 'not_found':
      return 'Check the job id: `docconv jobs` lists yours.';
    case 'payload_too_large':
      return 'Split the upload into smaller batches.';
    case 'unsupported_format':
    case 'encrypted_document':
      return 'Upload a file without a password in a format the service accepts: `docconv engines` lists them.';
    case 'engine_unavailable':
      return 'Pick another engine with --engine, or leave it out to let the service choose.';
    case 'timeout':
      return 'The job is still running: follow it with `docconv job <id>`.';
    default:
      return error.status >= 500 ? 'This is on the service’s side: try again shortly.' : undefined;
  }
}
