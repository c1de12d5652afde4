import { setTimeout as wait } from 'node:timers/promises';
import type { ChatMessage, CompletionOptions, LanguageModel } from './language-model';
import { LanguageModelError } from './language-model-error';

export interface OpenAiChatModelOptions {
  /** The API root, e.g. `https://api.openai.com/v1`; a trailing slash is fine. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; never appears in errors. */
  apiKey: string;
  /** The model name the server knows, e.g. `gpt-4o-mini`. */
  model: string;
  /** Longest wait for one attempt's whole answer. Default 60 000. */
  timeoutMs?: number;
  /** Attempts in all, the first included. Default 3. */
  maxAttempts?: number;
  /** Wait before the first retry; it doubles for each further retry. Default 1 000. */
  retryDelayMs?: number;
  /** Cap on any wait between attempts, a server's `Retry-After` included. Default 30 000. */
  maxRetryDelayMs?: number;
}

const DEFAULTS = { timeoutMs: 60_000, maxAttempts: 3, retryDelayMs: 1_000, maxRetryDelayMs: 30_000 };

/** Longest server error message quoted in our own errors. */
const MAX_QUOTED_CHARS = 200;

/**
 * A client for OpenAI-compatible chat-completion APIs (OpenAI, Azure's and vLLM's
 * OpenAI-compatible endpoints, Ollama's `/v1`, LiteLLM…). It asks at temperature 0 so the same
 * page gets the same answer, retries what may pass (network faults, timeouts, 429, 5xx) with
 * exponential backoff or the server's `Retry-After`, and fails at once on other answers.
 */
export class OpenAiChatModel implements LanguageModel {
  readonly name: string;
  private readonly endpoint: string;
  private readonly host: string;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;

  constructor(options: OpenAiChatModelOptions) {
    const settings = { ...DEFAULTS, ...withoutUndefined(options) };
    if (!Number.isInteger(settings.maxAttempts) || settings.maxAttempts < 1) {
      throw new RangeError('maxAttempts must be a whole number of at least 1.');
    }
    if (!(settings.timeoutMs > 0)) throw new RangeError('timeoutMs must be greater than 0.');
    this.name = options.model;
    this.endpoint = chatCompletionsUrl(options.baseUrl);
    this.host = new URL(this.endpoint).host;
    this.apiKey = options.apiKey;
    this.timeoutMs = settings.timeoutMs;
    this.maxAttempts = settings.maxAttempts;
    this.retryDelayMs = settings.retryDelayMs;
    this.maxRetryDelayMs = settings.maxRetryDelayMs;
  }

  async complete(messages: ChatMessage[], options: CompletionOptions = {}): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(messages, options.signal);
      } catch (error) {
        const failure = error as LanguageModelError;
        if (!failure.retryable) throw failure;
        if (attempt >= this.maxAttempts) throw this.gaveUp(failure, attempt);
        await this.pause(this.delayBeforeRetry(attempt, failure.retryAfterSeconds), options.signal);
      }
    }
  }

  /** One request and its answer; every failure becomes a `LanguageModelError`. */
  private async attempt(messages: ChatMessage[], cancel: AbortSignal | undefined): Promise<string> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    let body: string;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${this.apiKey}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
        body: JSON.stringify({ model: this.name, messages, temperature: 0 }),
        signal: cancel ? AbortSignal.any([cancel, timeout]) : timeout,
      });
      body = await response.text();
    } catch (error) {
      if (cancel?.aborted) throw this.cancelled(cancel);
      if (timeout.aborted) throw this.timedOut(error);
      throw this.unreachable(error);
    }
    if (!response.ok) throw this.refused(response.status, body, response.headers.get('retry-after'));
    return this.answerOf(body);
  }

  /** The assistant's text from a chat.completion body. */
  private answerOf(body: string): string {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new LanguageModelError(
        'answered with a body that is not JSON',
        `The language model at ${this.host} answered with a body that is not JSON. ` +
          'Check that the base URL points at an OpenAI-compatible API (it usually ends in /v1).',
      );
    }
    const choice = firstChoice(parsed);
    const content = choice?.message?.content;
    if (typeof content === 'string') return content;
    const reason = typeof choice?.finish_reason === 'string' ? ` (finish_reason: ${choice.finish_reason})` : '';
    throw new LanguageModelError(
      `answered without text${reason}`,
      `The language model at ${this.host} answered without text${reason}. Check that ${this.name} is a chat model.`,
    );
  }

  /** An HTTP error answer: retryable for 429 and 5xx, final for the rest. */
  private refused(status: number, body: string, retryAfter: string | null): LanguageModelError {
    const quoted = this.serverMessage(body);
    const detail = `answered ${status}${quoted ? `: ${quoted}` : ''}`;
    const advice = adviceFor(status);
    return new LanguageModelError(
      detail,
      `The language model at ${this.host} ${detail}.${advice ? ` ${advice}` : ''}`,
      {
        status,
        retryable: status === 429 || status >= 500,
        retryAfterSeconds: retryAfterSeconds(retryAfter),
      },
    );
  }

  /** The `error.message` of an OpenAI-shaped error body, one line, short, with the key blanked out. */
  private serverMessage(body: string): string | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return undefined;
    }
    const message = isRecord(parsed) && isRecord(parsed.error) ? parsed.error.message : undefined;
    if (typeof message !== 'string' || message.trim() === '') return undefined;
    const line = this.redact(message).replace(/\s+/g, ' ').trim().replace(/\.$/, '');
    return line.length > MAX_QUOTED_CHARS ? `${line.slice(0, MAX_QUOTED_CHARS)}…` : line;
  }

  private redact(text: string): string {
    return this.apiKey === '' ? text : text.split(this.apiKey).join('[redacted]');
  }

  private timedOut(cause: unknown): LanguageModelError {
    const detail = `did not answer within ${formatDuration(this.timeoutMs)}`;
    return new LanguageModelError(
      detail,
      `The language model at ${this.host} ${detail}. Raise the timeout or use a faster model.`,
      { retryable: true, cause },
    );
  }

  private unreachable(cause: unknown): LanguageModelError {
    const detail = `could not be reached (${networkFault(cause)})`;
    return new LanguageModelError(
      detail,
      `The language model at ${this.host} ${detail}. Check the base URL and that the server is running.`,
      { retryable: true, cause },
    );
  }

  private cancelled(signal: AbortSignal): LanguageModelError {
    return new LanguageModelError('was cancelled', `The call to the language model at ${this.host} was cancelled.`, {
      cause: signal.reason,
    });
  }

  /** The last retryable failure, saying how many attempts were made when there were several. */
  private gaveUp(failure: LanguageModelError, attempts: number): LanguageModelError {
    if (attempts === 1) return failure;
    return new LanguageModelError(
      `${failure.detail} (${attempts} attempts)`,
      `${failure.message} Gave up after ${attempts} attempts.`,
      { status: failure.status, retryable: true, retryAfterSeconds: failure.retryAfterSeconds, cause: failure },
    );
  }

  /**
   * How long to wait after failed attempt number `attempt`: the server's `Retry-After` when it
   * sent one, else exponential backoff with jitter (half fixed, half random, so workers that
   * failed together do not retry together); both capped by `maxRetryDelayMs`.
   */
  private delayBeforeRetry(attempt: number, retryAfterSeconds: number | undefined): number {
    if (retryAfterSeconds !== undefined) return Math.min(retryAfterSeconds * 1000, this.maxRetryDelayMs);
    const backoff = Math.min(this.retryDelayMs * 2 ** (attempt - 1), this.maxRetryDelayMs);
    return backoff / 2 + (Math.random() * backoff) / 2;
  }

  /** Waits between attempts; a cancel during the wait ends the call at once. */
  private async pause(ms: number, cancel: AbortSignal | undefined): Promise<void> {
    try {
      await wait(ms, undefined, { signal: cancel });
    } catch {
      throw this.cancelled(cancel as AbortSignal);
    }
  }
}

/** `${baseUrl}/chat/completions`, whatever slashes `baseUrl` ends with. */
function chatCompletionsUrl(baseUrl: string): string {
  const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  if (!URL.canParse(url)) throw new TypeError(`The language model base URL "${baseUrl}" is not a valid URL.`);
  return url;
}

/** What to do about an HTTP error status, in one sentence (or nothing when there is no advice). */
function adviceFor(status: number): string {
  if (status === 401) return 'Check the language model API key.';
  if (status === 403) return 'Check that the API key may use this model.';
  if (status === 404) return 'Check the base URL and the model name.';
  if (status === 429) return 'The provider is limiting requests or the quota is used up; try again later.';
  if (status >= 500) return 'The provider had a fault; try again later.';
  return '';
}

/** `Retry-After` in seconds (the delta-seconds form); undefined when absent or in another form. */
function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || !/^\s*\d+(\.\d+)?\s*$/.test(header)) return undefined;
  return Number(header);
}

/**
 * The low-level reason `fetch` failed, e.g. `ECONNREFUSED`. Read by shape, not `instanceof`:
 * errors from `fetch` may come from another realm (e.g. under a test runner's sandbox).
 */
function networkFault(error: unknown): string {
  const cause = isRecord(error) ? error.cause : undefined;
  if (isRecord(cause) && typeof cause.code === 'string') return cause.code;
  if (isRecord(cause) && typeof cause.message === 'string') return cause.message;
  return isRecord(error) && typeof error.message === 'string' ? error.message : String(error);
}

interface CompletionChoice {
  message?: { content?: unknown };
  finish_reason?: unknown;
}

function firstChoice(body: unknown): CompletionChoice | undefined {
  if (!isRecord(body) || !Array.isArray(body.choices)) return undefined;
  const choice: unknown = body.choices[0];
  if (!isRecord(choice)) return undefined;
  return { message: isRecord(choice.message) ? choice.message : undefined, finish_reason: choice.finish_reason };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** `options` without its undefined members, so defaults fill them. */
function withoutUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
