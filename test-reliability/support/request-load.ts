/** What one request came back with. */
export interface Answer {
  /** The HTTP status, `timeout` when no answer came within the limit, `network` when the connection failed. */
  status: number | 'timeout' | 'network';
  /** How long until the whole response arrived, or until it was given up on. */
  ms: number;
  /** Whether the body was declared `application/problem+json`. */
  problemJson: boolean;
  /** The body parsed as JSON, or null. */
  json: unknown;
}

/** One request of a load, and when it was sent. */
export interface Sample extends Answer {
  path: string;
  /** `Date.now()` when the request was sent. */
  sentAt: number;
}

/** Sends one request with the API key and waits at most `limitMs` for the whole answer. */
export async function send(
  baseUrl: string,
  apiKey: string,
  path: string,
  limitMs: number,
  init: RequestInit = {},
): Promise<Answer> {
  const sent = Date.now();
  const signal = AbortSignal.timeout(limitMs);
  try {
    const headers = { ...(init.headers as Record<string, string> | undefined), 'X-API-Key': apiKey };
    const response = await fetch(`${baseUrl}${path}`, { ...init, headers, signal });
    const text = await response.text();
    return {
      status: response.status,
      ms: Date.now() - sent,
      problemJson: /^application\/problem\+json/.test(response.headers.get('content-type') ?? ''),
      json: parseJson(text),
    };
  } catch {
    return { status: signal.aborted ? 'timeout' : 'network', ms: Date.now() - sent, problemJson: false, json: null };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * A light, steady load on a running API: every `intervalMs` it sends one GET to each path
 * with the API key, without waiting for earlier requests to finish (so a hanging request
 * shows as a timeout, not as a quieter load). Every request is recorded.
 */
export class RequestLoad {
  readonly samples: Sample[] = [];
  private timer?: NodeJS.Timeout;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly paths: string[],
    private readonly intervalMs: number,
    private readonly limitMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      for (const path of this.paths) this.track(this.sample(path));
    }, this.intervalMs);
  }

  /** Stops sending and waits for the requests still under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.inFlight]);
  }

  /** Answered samples of `path` sent at or after `from` and before `to`. */
  between(path: string, from: number, to = Infinity): Sample[] {
    return this.samples.filter((s) => s.path === path && s.sentAt >= from && s.sentAt < to);
  }

  /** Resolves once `count` requests to every path sent at or after `from` have been answered (or given up on). */
  async waitForSamplesSince(from: number, count: number): Promise<void> {
    // Each request ends within its limit, so the answers arrive within this many intervals' time.
    const deadline = Date.now() + count * this.intervalMs + this.limitMs + 10_000;
    while (this.paths.some((path) => this.between(path, from).length < count)) {
      if (Date.now() > deadline) throw new Error(`the load did not get ${count} answers per path`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private track(request: Promise<void>): void {
    this.inFlight.add(request);
    void request.finally(() => this.inFlight.delete(request));
  }

  private async sample(path: string): Promise<void> {
    const sentAt = Date.now();
    const answer = await send(this.baseUrl, this.apiKey, path, this.limitMs);
    this.samples.push({ ...answer, path, sentAt });
  }
}
