import { unwrap, type DocconvClient } from './client';
import { DocconvError } from './errors';
import type { components } from './schema';

export type IssuedKey = components['schemas']['IssuedKeyResponse'];
/** One of the person's API keys as `listKeys()` gives it: its settings and state, never the secret. */
export type KeyInfo = components['schemas']['KeyResponse'];
/** One of the person's live sessions, as `listSessions()` gives it. */
export type SessionInfo = components['schemas']['SessionResponse'];
export type Scope = IssuedKey['scopes'][number];

export interface Credentials {
  email: string;
  password: string;
}

/**
 * A session from sign-up, log-in or refresh: a short-lived access token (JWT) that authenticates
 * a person on jobs, the account and key management, and the refresh token that renews it once:
 * `refresh()` before `expires_in` runs out and keep the new pair (the old refresh token stops
 * working; using it again ends the session).
 */
export interface Session {
  access_token: string;
  token_type: 'Bearer';
  /** Seconds until the access token expires. */
  expires_in: number;
  refresh_token: string;
  /** Seconds until the session ends, renewed or not. */
  refresh_expires_in: number;
  session_id: string;
  /** Present after sign-up. */
  user_id?: string;
}

/**
 * Reads a session out of a sign-up, log-in or refresh response. Checked here rather than
 * trusted, since the whole session hangs on it.
 */
function readSession(data: unknown, response: Response): Session {
  const body = (data ?? {}) as Partial<Session>;
  for (const field of ['access_token', 'refresh_token', 'session_id'] as const) {
    if (typeof body[field] !== 'string' || body[field] === '') {
      throw DocconvError.invalidResponse(`${response.url} answered ${response.status} without a ${field}.`);
    }
  }
  return {
    access_token: body.access_token!,
    token_type: 'Bearer',
    expires_in: typeof body.expires_in === 'number' ? body.expires_in : 0,
    refresh_token: body.refresh_token!,
    refresh_expires_in: typeof body.refresh_expires_in === 'number' ? body.refresh_expires_in : 0,
    session_id: body.session_id!,
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
 * Exchanges the session's refresh token (or the session holding it) for a new access token and
 * a new refresh token (POST /api/v1/auth/refresh); keep both. A refresh token works once: an
 * unknown or already used one, or one whose session has ended, is refused with a 401
 * (`unauthorized`), and an already used one ends the session. The person logs in again.
 */
export async function refresh(client: DocconvClient, session: Session | string): Promise<Session> {
  const refreshToken = typeof session === 'string' ? session : session.refresh_token;
  const { data, error, response } = await client.api.POST('/api/v1/auth/refresh', {
    body: { refresh_token: refreshToken },
  });
  if (!response.ok) throw DocconvError.fromResponse(response, error);
  return readSession(data, response);
}

/** The header that authenticates a call with the session's access token. */
function bearer(session: Session | string): { Authorization: string } {
  return { Authorization: `Bearer ${typeof session === 'string' ? session : session.access_token}` };
}

/** Ends the session (POST /api/v1/auth/logout): its access and refresh tokens stop working at once. */
export async function logout(client: DocconvClient, session: Session | string): Promise<void> {
  const { error, response } = await client.api.POST('/api/v1/auth/logout', { headers: bearer(session) });
  if (!response.ok) throw DocconvError.fromResponse(response, error);
}

/** The person's live sessions, newest first (GET /api/v1/auth/sessions); `current` marks this one. */
export function listSessions(client: DocconvClient, session: Session | string): Promise<SessionInfo[]> {
  return unwrap(client.api.GET('/api/v1/auth/sessions', { headers: bearer(session) }));
}

/** Ends one of the person's sessions (DELETE /api/v1/auth/sessions/{session_id}). */
export async function endSession(client: DocconvClient, session: Session | string, sessionId: string): Promise<void> {
  const { error, response } = await client.api.DELETE('/api/v1/auth/sessions/{session_id}', {
    headers: bearer(session),
    params: { path: { session_id: sessionId } },
  });
  if (!response.ok) throw DocconvError.fromResponse(response, error);
}

/**
 * Changes the password (POST /api/v1/auth/password); every other session of the person ends,
 * this one goes on. A wrong current password is a 400 naming `current_password`.
 */
export async function changePassword(
  client: DocconvClient,
  session: Session | string,
  passwords: { currentPassword: string; newPassword: string },
): Promise<void> {
  const { error, response } = await client.api.POST('/api/v1/auth/password', {
    headers: bearer(session),
    body: { current_password: passwords.currentPassword, new_password: passwords.newPassword },
  });
  if (!response.ok) throw DocconvError.fromResponse(response, error);
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
  return unwrap(
    client.api.POST('/api/v1/keys', {
      headers: bearer(session),
      body: { name: options.name, scopes: options.scopes, rate_limit_rpm: options.rateLimitRpm },
    }),
  );
}

/** The person's API keys, active or not, newest first (GET /api/v1/keys; a session token only). */
export function listKeys(client: DocconvClient, session: Session | string): Promise<KeyInfo[]> {
  return unwrap(client.api.GET('/api/v1/keys', { headers: bearer(session) }));
}

/**
 * Deactivates one of the person's keys (DELETE /api/v1/keys/{key_id}; a session token only): it
 * is refused from the next request on. A key that is not the person's, or not active, is a 404.
 */
export function deactivateKey(client: DocconvClient, session: Session | string, keyId: string): Promise<KeyInfo> {
  return unwrap(
    client.api.DELETE('/api/v1/keys/{key_id}', { headers: bearer(session), params: { path: { key_id: keyId } } }),
  );
}
