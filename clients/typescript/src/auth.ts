import { unwrap, type DocconvClient } from './client';
import { DocconvError } from './errors';
import type { components } from './schema';

export type IssuedKey = components['schemas']['IssuedKeyResponse'];
export type Scope = IssuedKey['scopes'][number];

export interface Credentials {
  email: string;
  password: string;
}

/**
 * A session token (JWT) from sign-up, log-in or refresh: it authenticates a person on jobs,
 * the account and key management. It is short-lived: `refresh()` it before `expires_in` runs out.
 */
export interface Session {
  access_token: string;
  token_type: 'Bearer';
  /** Seconds until the token expires. */
  expires_in: number;
  /** Present after sign-up. */
  user_id?: string;
}

/**
 * Reads a session out of a sign-up, log-in or refresh response. Checked here rather than
 * trusted, since the whole session hangs on it.
 */
function readSession(data: unknown, response: Response): Session {
  const body = (data ?? {}) as Partial<Session>;
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw DocconvError.invalidResponse(`${response.url} answered ${response.status} without an access_token.`);
  }
  return {
    access_token: body.access_token,
    token_type: 'Bearer',
    expires_in: typeof body.expires_in === 'number' ? body.expires_in : 0,
    ...(typeof body.user_id === 'string' ? { user_id: body.user_id } : {}),
  };
}

/** Creates an account (POST /api/v1/auth/signup) and returns its first session token. */
export async function signup(client: DocconvClient, credentials: Credentials): Promise<Session> {
  const { data, error, response } = await client.api.POST('/api/v1/auth/signup', { body: credentials });
  if (!response.ok) throw DocconvError.fromResponse(response, error);
  return readSession(data, response);
}

/** Exchanges an email and password for a session token (POST /api/v1/auth/login). */
export async function login(client: DocconvClient, credentials: Credentials): Promise<Session> {
  const { data, error, response } = await client.api.POST('/api/v1/auth/login', { body: credentials });
  if (!response.ok) throw DocconvError.fromResponse(response, error);
  return readSession(data, response);
}

/**
 * Exchanges a session token that still works for a new one with a full lifetime
 * (POST /api/v1/auth/refresh). An expired or unknown token is refused with a 401
 * (`unauthorized`): the person logs in again.
 */
export async function refresh(client: DocconvClient, session: Session | string): Promise<Session> {
  const token = typeof session === 'string' ? session : session.access_token;
  const { data, error, response } = await client.api.POST('/api/v1/auth/refresh', {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw DocconvError.fromResponse(response, error);
  return readSession(data, response);
}

export interface CreateKeyOptions {
  /** Display name of the key. */
  name?: string;
  /** Defaults to both `jobs:read` and `jobs:write`. */
  scopes?: Scope[];
  /** Requests per minute; the service defaults to 60. */
  rateLimitRpm?: number;
}

/**
 * Creates an API key with a session token (POST /api/v1/keys; an API key is not accepted
 * there). The returned `key` is the only time the full value is shown: store it.
 */
export function createKey(
  client: DocconvClient,
  session: Session | string,
  options: CreateKeyOptions = {},
): Promise<IssuedKey> {
  const token = typeof session === 'string' ? session : session.access_token;
  return unwrap(
    client.api.POST('/api/v1/keys', {
      headers: { Authorization: `Bearer ${token}` },
      body: { name: options.name, scopes: options.scopes, rate_limit_rpm: options.rateLimitRpm },
    }),
  );
}
