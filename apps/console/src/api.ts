import { createClient, type components, type DocconvClient } from '@docconv/client';
import type { Session } from './session';

export type Capabilities = components['schemas']['CapabilitiesResponse'];

/** The API is served by the same origin as the console. */
const baseUrl = window.location.origin;

const clients = new Map<string, DocconvClient>();

function cached(id: string, make: () => DocconvClient): DocconvClient {
  let client = clients.get(id);
  if (!client) {
    client = make();
    clients.set(id, client);
  }
  return client;
}

/** Calls that need no credential: sign-up, log-in, capabilities, pricing. */
export const publicClient: DocconvClient = createClient({ baseUrl });

/** Account and key management, authenticated with the session token. */
export function accountClient(session: Session): DocconvClient {
  return cached(`jwt:${session.token}`, () => createClient({ baseUrl, accessToken: session.token }));
}

/** Jobs, authenticated with the API key this tab uses; null when it has none yet. */
export function jobsClient(session: Session): DocconvClient | null {
  const { apiKey } = session;
  if (!apiKey) return null;
  return cached(`key:${apiKey}`, () => createClient({ baseUrl, apiKey }));
}
