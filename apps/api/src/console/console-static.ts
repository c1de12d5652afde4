import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';

/** What the console's pages may load: only its own files, and data from this origin's API. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/** Vite names the files under assets/ by their content hash, so a cached copy never goes stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** `/api` and everything under it belongs to the API. */
const isApiPath = (path: string): boolean => path === '/api' || path.startsWith('/api/');

/**
 * Serves the web console's static build at `/`, beside the API under `/api`. Only files that
 * exist in `dir` are answered (GET and HEAD); every other request falls through to the API
 * exactly as before. Paths under `/api` skip the file handler altogether, so an API request
 * never waits for the disk (the handler looks each path up in `dir` before falling through). The console routes by URL hash, so there is no
 * fallback to index.html. Without a build (no index.html) nothing is mounted and one line says so.
 * Returns whether the console is served.
 */
export function mountConsole(app: NestExpressApplication, dir: string, logger: Logger): boolean {
  if (!existsSync(join(dir, 'index.html'))) {
    logger.info({ dir }, 'The web console is not built (no index.html in CONSOLE_DIR): serving the API only');
    return false;
  }
  if (existsSync(join(dir, 'api'))) {
    logger.warn({ dir }, 'The web console build has an api entry that would shadow the API: not serving the console');
    return false;
  }
  const files = express.static(dir, {
    index: 'index.html',
    dotfiles: 'ignore',
    redirect: false,
    fallthrough: true,
    etag: true,
    lastModified: true,
    setHeaders: (res: Response, path: string) => {
      res.setHeader('Content-Security-Policy', CONSOLE_CSP);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Referrer-Policy', 'no-referrer');
      res.setHeader('Cache-Control', relative(dir, path).startsWith(`assets${sep}`) ? IMMUTABLE : 'no-cache');
    },
  });
  app.use((request: Request, response: Response, next: NextFunction) => {
    if (isApiPath(request.path)) next();
    else void files(request, response, next);
  });
  logger.info({ dir }, 'Serving the web console at /');
  return true;
}
