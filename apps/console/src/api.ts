import { createClient, refresh, type components, type DocconvClient } from '@docconv/client';
import { getSession, type Renew, type Session } from './session';

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

/** Exchanges the tab's session token for a new one (POST /api/v1/auth/refresh). */
export const renewSession: Renew = async (token) => {
  const renewed = await refresh(publicClient, token);
  return { token: renewed.access_token, expiresInSeconds: renewed.expires_in };
};
