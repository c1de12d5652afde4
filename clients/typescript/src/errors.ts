/** One field-level validation failure, as listed in a problem's `errors` member. */
export interface FieldError {
  field: string;
  message: string;
}

/** The members of an RFC 9457 problem+json body that the SDK reads. */
export interface Problem {
  status: number;
  title: string;
  detail: string;
  code: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

/** Codes for failures that happen on the client side, where the service sent no problem. */
export type ClientErrorCode = 'network_error' | 'timeout' | 'invalid_response' | 'job_pending';

/**
 * Every failure the SDK reports: an error response of the API (its problem+json `status`,
 * `title`, `detail` and `code`), or a client-side failure with status 0 and a
 * {@link ClientErrorCode}. `problem` keeps the whole body, extensions included.
 */
export class DocconvError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly code: string;
  readonly errors: FieldError[];
  readonly problem: Problem;
  /** Seconds the service asked the client to wait (`Retry-After`), when it did. */
  readonly retryAfterSeconds?: number;

  constructor(problem: Problem, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super(`${problem.title}: ${problem.detail}`, { cause: options.cause });
    this.name = 'DocconvError';
    this.status = problem.status;
    this.title = problem.title;
    this.detail = problem.detail;
    this.code = problem.code;
    this.errors = problem.errors ?? [];
    this.problem = problem;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /**
   * The error for a non-2xx response. `body` is what openapi-fetch parsed (JSON when it could,
   * else text); a body that is not a problem, such as a proxy's HTML page, still gives a
   * readable title and detail.
   */
  static fromResponse(response: Response, body: unknown): DocconvError {
    const retryAfterSeconds = parseRetryAfter(response.headers.get('Retry-After'));
    if (isProblem(body)) return new DocconvError({ ...body, status: response.status }, { retryAfterSeconds });
    const text = typeof body === 'string' ? body.trim().slice(0, 300) : '';
    return new DocconvError(
      {
        status: response.status,
        title: response.statusText || `HTTP ${response.status}`,
        detail: text || `The service answered ${response.status} without an explanation.`,
        code: `http_${response.status}`,
      },
      { retryAfterSeconds },
    );
  }

  /** The error for a request that got no response at all (refused connection, DNS, TLS). */
  static network(url: string, cause: unknown): DocconvError {
    const reason = describeCause(cause);
    return new DocconvError(
      {
        status: 0,
        title: 'Service unreachable',
        detail: `No response from ${new URL(url).origin}${reason ? ` (${reason})` : ''}.`,
        code: 'network_error',
      },
      { cause },
    );
  }

  /** The error for a successful response whose body is not what the API documents. */
  static invalidResponse(detail: string): DocconvError {
    return new DocconvError({ status: 0, title: 'Unexpected response', detail, code: 'invalid_response' });
  }
}

function isProblem(body: unknown): body is Problem {
  if (typeof body !== 'object' || body === null) return false;
  const { title, detail, code } = body as Record<string, unknown>;
  return typeof title === 'string' && typeof detail === 'string' && typeof code === 'string';
}

function parseRetryAfter(header: string | null): number | undefined {
  if (header === null || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header);
}

/** Node's fetch hides the socket error in `cause`; its code (ECONNREFUSED…) is what a person can act on. */
function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return '';
  const inner = cause.cause as { code?: unknown; message?: unknown } | undefined;
  if (inner && typeof inner.code === 'string') return inner.code;
  if (inner && typeof inner.message === 'string') return inner.message;
  return cause.message;
}
