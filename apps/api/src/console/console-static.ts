import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
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

/**
 * Serves the web console's static build at `/`, beside the API under `/api`. Each file of the
 * build gets a route of its own (GET and HEAD), listed once at start: a request for anything
 * else never looks at the disk, and falls to the not-found answer. The console routes by URL
 * hash, so there is no fallback to index.html. Without a build (no index.html) nothing is
 * mounted and one line says so. Returns whether the console is served.
 */
export async function mountConsole(server: FastifyInstance, dir: string, logger: Logger): Promise<boolean> {
  if (!existsSync(join(dir, 'index.html'))) {
    logger.info({ dir }, 'The web console is not built (no index.html in CONSOLE_DIR): serving the API only');
    return false;
  }
  if (existsSync(join(dir, 'api'))) {
    logger.warn({ dir }, 'The web console build has an api entry that would shadow the API: not serving the console');
    return false;
  }
  await server.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    redirect: false,
    dotfiles: 'ignore',
    etag: true,
    lastModified: true,
    cacheControl: false,
    decorateReply: false,
    setHeaders: (reply: FastifyReply, path: string) => {
      reply.header('Content-Security-Policy', CONSOLE_CSP);
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Referrer-Policy', 'no-referrer');
      reply.header('Cache-Control', relative(dir, path).startsWith(`assets${sep}`) ? IMMUTABLE : 'no-cache');
    },
  });
  logger.info({ dir }, 'Serving the web console at /');
  return true;
}
