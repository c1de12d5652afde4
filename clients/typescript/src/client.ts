import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import { DocconvError } from './errors';
import { normaliseJob, type Job } from './normalize';
import type { components, paths } from './schema';

type Schemas = components['schemas'];

export type Account = Schemas['AccountResponse'];
export type UsageRow = Schemas['UsageRowResponse'];
export type Transaction = Schemas['TransactionResponse'];
export type Capabilities = Schemas['CapabilitiesResponse'];
export type JobStatus = Job['status'];

/** One page of the job list, newest first; pass `next_cursor` back as `cursor` for the next page. */
export interface JobList {
  jobs: Job[];
  next_cursor: string | null;
}

export interface ClientOptions {
  /** Where the service runs, e.g. `https://docconv.example.com`; a trailing `/api/v1` is accepted too. */
  baseUrl: string;
  /**
   * An API key, sent as `X-API-Key`: for programs. It works on every route but `/keys…` and
   * carries its own scopes, rate limit and daily quota. Leave both credentials out for public
   * calls such as sign-up, log-in and pricing.
   */
  apiKey?: string;
  /**
   * A session token (JWT from `login()`, `signup()` or `refresh()`), sent as
   * `Authorization: Bearer <token>`: for people. It works on `/jobs…`, `/account…` and `/keys…`
   * with every scope. A function is called before each request, so one client follows a session
   * that is refreshed (`refresh()`) while it is in use. When both credentials are given, routes
   * that take either read the API key.
   */
  accessToken?: string | (() => string | null | undefined);
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: (input: Request) => Promise<Response>;
}

/**
 * A client of one service with one credential (an API key or a session token): the typed openapi-fetch client (`api`) for
 * any operation, and typed methods for the reads most callers need. Workflow helpers
 * (`uploadFiles`, `waitForJob`, `convert`…) take it as their first argument.
 */
export interface DocconvClient {
  /** The service root, without a trailing slash or `/api/v1`. */
  readonly baseUrl: string;
  /** Typed calls to every path of the OpenAPI document; failures come back in `error`, not thrown. */
  readonly api: Client<paths>;
  getJob(jobId: string): Promise<Job>;
  listJobs(query?: { status?: JobStatus; limit?: number; cursor?: string }): Promise<JobList>;
  getAccount(): Promise<Account>;
  getUsage(days?: number): Promise<UsageRow[]>;
  getTransactions(limit?: number): Promise<Transaction[]>;
  /** Payments, newest first: the credits bought (`startCheckout`) once Stripe reported them paid. */
  getPayments(limit?: number): Promise<Schemas['PaymentResponse'][]>;
  /** The price table, the free pages per month and whether credits can be bought (`payments`). */
  getPricing(): Promise<Schemas['PricingResponse']>;
}

/** What an openapi-fetch call resolves to, reduced to what {@link unwrap} reads. */
interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The data of a successful call, or a {@link DocconvError} built from the problem+json the
 * service sent. Every helper goes through here so callers handle one kind of error.
 */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw DocconvError.fromResponse(response, error);
  if (data === undefined)
    throw DocconvError.invalidResponse(`${response.url} answered ${response.status} with no body.`);
  return data;
}

/** Strips trailing slashes and a trailing `/api/v1`, since every path of the document starts with it. */
export function serviceRoot(baseUrl: string): string {
  const root = baseUrl
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/api\/v1$/, '');
  if (!URL.canParse(root)) throw new TypeError(`Not a URL: ${baseUrl}`);
  return root;
}

/**
 * Turns fetch's bare "fetch failed" into a DocconvError that names the unreachable service.
 * A request the caller aborted keeps its AbortError: nothing is wrong with the service.
 */
const networkErrors: Middleware = {
  onError({ request, error }) {
    if (request.signal.aborted) return undefined;
    return DocconvError.network(request.url, error);
  },
};

/** The credential headers of a client made with fixed credentials: the API key, the session token, both or neither. */
function credentialHeaders(options: ClientOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  if (options.apiKey) headers['X-API-Key'] = options.apiKey;
  if (typeof options.accessToken === 'string' && options.accessToken)
    headers.Authorization = `Bearer ${options.accessToken}`;
  return headers;
}

/** Sends the session token current at each request, unless the call names its own Authorization. */
function currentSession(token: () => string | null | undefined): Middleware {
  return {
    onRequest({ request }) {
      const current = token();
      if (current && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${current}`);
      return request;
    },
  };
}

/**
 * Creates a client for the service at `baseUrl`, authenticated with an API key or a session
 * token (`accessToken`) when given; with neither it makes public calls only.
 */
export function createClient(options: ClientOptions): DocconvClient {
  const baseUrl = serviceRoot(options.baseUrl);
  const api = createFetchClient<paths>({
    baseUrl,
    fetch: options.fetch,
    headers: credentialHeaders(options),
  });
  api.use(networkErrors);
  if (typeof options.accessToken === 'function') api.use(currentSession(options.accessToken));

  return {
    baseUrl,
    api,
    async getJob(jobId) {
      const job = await unwrap(api.GET('/api/v1/jobs/{job_id}', { params: { path: { job_id: jobId } } }));
      return normaliseJob(job);
    },
    async listJobs(query = {}) {
      const page = await unwrap(api.GET('/api/v1/jobs', { params: { query } }));
      return { jobs: page.jobs.map(normaliseJob), next_cursor: page.next_cursor ?? null };
    },
    getAccount: () => unwrap(api.GET('/api/v1/account')),
    getUsage: (days) => unwrap(api.GET('/api/v1/account/usage', { params: { query: { days } } })),
    getTransactions: (limit) => unwrap(api.GET('/api/v1/account/transactions', { params: { query: { limit } } })),
    getPayments: (limit) => unwrap(api.GET('/api/v1/account/payments', { params: { query: { limit } } })),
    getPricing: () => unwrap(api.GET('/api/v1/pricing')),
  };
}
