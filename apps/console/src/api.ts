import { createClient, logout, refresh, type components, type DocconvClient } from '@docconv/client';
import { getSession, type Issued, type LogOut, type Renew, type Session } from './session';

export type Capabilities = components['schemas']['CapabilitiesResponse'];

/** The API is served by the same origin as the console. */
const baseUrl = window.location.origin;

/** Calls that need no credential: sign-up, log-in, capabilities, pricing. */
export const publicClient: DocconvClient = createClient({ baseUrl });

const clients = new Map<string, DocconvClient>();

/**
 * Every call of a signed-in person (jobs, the account, keys), authenticated with the session
 * token. One client per person: it reads the tab's current token at each request, so a renewed
 * token is used at once and the pages holding the client keep it.
 */
export function sessionClient(session: Session): DocconvClient {
  let client = clients.get(session.email);
  if (!client) {
    client = createClient({ baseUrl, accessToken: () => getSession()?.token });
    clients.set(session.email, client);
  }
  return client;
}

/** The account and key pages' name for {@link sessionClient}. */
export const accountClient = sessionClient;

/** What the tab keeps of a session the API issued. */
export function issuedOf(session: { access_token: string; refresh_token: string; expires_in: number }): Issued {
  return { token: session.access_token, refreshToken: session.refresh_token, expiresInSeconds: session.expires_in };
}

/** Exchanges the tab's refresh token for a new access token and refresh token (POST /api/v1/auth/refresh). */
export const renewSession: Renew = async (refreshToken) => issuedOf(await refresh(publicClient, refreshToken));

/** Ends the tab's session on the server (POST /api/v1/auth/logout). */
export const logOutSession: LogOut = (token) => logout(publicClient, token);
