import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

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

/**
 * Headers on every response: `nosniff`, no framing, no referrer, no cross-domain policies (helmet,
 * without its one-size Content-Security-Policy); then, per surface, the API's and Swagger UI's
 * Content-Security-Policy and the API's `Cache-Control: private, no-store`. The web console sets
 * its own policy and caching on the files it serves.
 */
export function securityHeaders(): RequestHandler[] {
  return [
    helmet({
      contentSecurityPolicy: false,
      crossOriginResourcePolicy: false,
      xFrameOptions: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
    }),
    (request: Request, response: Response, next: NextFunction) => {
      if (request.path === '/api/docs' || request.path.startsWith('/api/docs/')) {
        response.setHeader('Content-Security-Policy', DOCS_CSP);
      } else if (request.path === '/api' || request.path.startsWith('/api/')) {
        response.setHeader('Content-Security-Policy', API_CSP);
        response.setHeader('Cache-Control', NO_STORE);
      }
      next();
    },
  ];
}
