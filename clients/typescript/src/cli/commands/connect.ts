import { createClient, type DocconvClient } from '../../client';
import { resolveConnection } from '../config';
import type { Terminal } from '../terminal';

/** A client for the configured service and key (environment first, then the saved configuration). */
export async function connect(term: Terminal): Promise<DocconvClient> {
  const { url, apiKey } = await resolveConnection(term.env);
  return createClient({ baseUrl: url, apiKey });
}
