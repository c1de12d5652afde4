import { DomainError } from '@docconv/contracts';

export interface LanguageModelErrorOptions {
  /** The HTTP status the model's server answered with, when it answered at all. */
  status?: number;
  /**
   * Whether trying again later may succeed (network faults, timeouts, 429, 5xx). It stays true
   * after an adapter has used up its own retries: a later attempt, e.g. a queue retry, may pass.
   */
  retryable?: boolean;
  /** The server's `Retry-After`, in seconds, when it sent one. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * A language model call that gave no usable answer. `message` says what happened and what to
 * do in words an operator can act on; `detail` is the short clause naming what happened
 * (e.g. `answered 401: Invalid API key`), for notes that embed it in a sentence of their own.
 * Neither ever holds the API key.
 */
export class LanguageModelError extends DomainError {
  readonly status?: number;
  readonly retryable: boolean;

  constructor(
    readonly detail: string,
    message: string,
    options: LanguageModelErrorOptions = {},
  ) {
    super('refinement_unavailable', message, { cause: options.cause, retryAfterSeconds: options.retryAfterSeconds });
    this.name = 'LanguageModelError';
    this.status = options.status;
    this.retryable = options.retryable ?? false;
  }
}
