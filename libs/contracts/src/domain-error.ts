import type { ErrorCode, FieldError } from './error-codes';

export interface DomainErrorOptions {
  /** Field-level failures, for `validation_failed`. */
  errors?: FieldError[];
  /** Seconds a client should wait before trying again (rate limits, quotas). */
  retryAfterSeconds?: number;
  /** Extra members placed in the problem body, e.g. `{ needed: 120, balance: 40 }`. */
  extensions?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * The one error type shared libraries throw. It names what went wrong (`code`) and says, in
 * words a person can act on, what to do (`message`). How it maps to HTTP is the API's
 * concern; the worker records the message in a job's `error_log`.
 */
export class DomainError extends Error {
  readonly errors?: FieldError[];
  readonly retryAfterSeconds?: number;
  readonly extensions?: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: DomainErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.errors = options.errors;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.extensions = options.extensions;
  }
}
