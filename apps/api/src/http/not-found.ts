import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_CSP } from '../console/console-static';
import { PROBLEM_CONTENT_TYPE, problemType, type Problem } from '../errors/problem';
import { titleOf } from '../errors/status-of';

/** The console's page for an address it does not have: no script, its own styles, links back in. */
const CONSOLE_NOT_FOUND = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Page not found · docconv</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2937}a{color:#1d4ed8}</style></head>
<body><main><h1>Page not found</h1>
<p>docconv has no page at this address.</p>
<p><a href="/">Open the console</a> · <a href="/api/docs">API documentation</a></p></main></body>
</html>
`;

/**
 * The last handler of all: an address nothing else answered. Under /api (and anywhere when the
 * console is not served, or for a method other than GET and HEAD) a problem+json 404 like every
 * other error of the API; elsewhere, for a browser, the console's own not-found page.
 */
export function notFound(consoleServed: boolean): (request: FastifyRequest, reply: FastifyReply) => void {
  return (request, reply) => {
    const path = request.url.split('?')[0];
    const forApi = path === '/api' || path.startsWith('/api/');
    if (consoleServed && !forApi && (request.method === 'GET' || request.method === 'HEAD')) {
      reply
        .code(404)
        .header('Content-Security-Policy', CONSOLE_CSP)
        .header('Cache-Control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(CONSOLE_NOT_FOUND);
      return;
    }
    const problem: Problem = {
      type: problemType('not_found'),
      title: titleOf('not_found'),
      status: 404,
      detail: `There is no endpoint ${request.method} ${path}. See /api/docs.`,
      code: 'not_found',
      instance: path,
    };
    reply.code(404).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
  };
}
