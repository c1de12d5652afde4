import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** API responses (JSON, problems, downloads) are data: nothing in them may load, run or be framed. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Swagger UI loads its own scripts and styles (one inline style block), and the OpenAPI document. */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/** Everything under /api is a person's own data or live state: no cache may keep it. */
const NO_STORE = 'private, no-store';

/** Helmet's policies: its defaults, without its one-size Content-Security-Policy. */
export const HELMET_OPTIONS = {
  contentSecurityPolicy: false,
  crossOriginResourcePolicy: false,
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
} as const;

/**
 * The headers helmet sets with `HELMET_OPTIONS`, and those it removes, read once from a dry run
 * of its middleware. They are the same on every response, so a request sets them in one loop
 * rather than through helmet's chain of eleven middlewares.
 */
export function helmetHeaders(): { set: [string, string][]; removed: string[] } {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => set.push([name, String(value)]),
    removeHeader: (name: string) => removed.push(name),
  };
  let done = false;
  helmet(HELMET_OPTIONS)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error('helmet failed to set its headers');
    done = true;
  });
  if (!done) throw new Error('helmet did not set its headers synchronously');
  return { set, removed };
}

/**
 * Headers on every response: `nosniff`, no framing, no referrer, no cross-domain policies (helmet,
 * without its one-size Content-Security-Policy); then, per surface, the API's and Swagger UI's
 * Content-Security-Policy and the API's `Cache-Control: private, no-store`. The web console sets
 * its own policy and caching on the files it serves. They go on the Node response, so every
 * answer carries them: Fastify's own, an error, a stream written straight to the socket.
 */
export function securityHeaders(): (path: string, response: ServerResponse) => void {
  const { set, removed } = helmetHeaders();
  return (path, response) => {
    for (let i = 0; i < set.length; i++) response.setHeader(set[i][0], set[i][1]);
    for (let i = 0; i < removed.length; i++) response.removeHeader(removed[i]);
    if (path.startsWith('/api/')) {
      if (path.startsWith('/api/docs/') || path === '/api/docs') {
        response.setHeader('Content-Security-Policy', DOCS_CSP);
      } else {
        response.setHeader('Content-Security-Policy', API_CSP);
        response.setHeader('Cache-Control', NO_STORE);
      }
    } else if (path === '/api') {
      response.setHeader('Content-Security-Policy', API_CSP);
      response.setHeader('Cache-Control', NO_STORE);
    }
  };
}
