import type { INestApplication } from '@nestjs/common';

/** What this module reads of a layer of Express's router. */
interface Layer {
  route?: unknown;
}

/**
 * Initialises `app` with what `mount` registers on the Express instance (Swagger UI and the
 * OpenAPI document, the console's files) placed after the API's routes rather than before them.
 * Express's router visits its layers in order on every request, and `app.init()` adds the
 * API's routes after everything registered before it: without the move, each API request would
 * first walk past the documentation's nine layers and the console's. They go right after the
 * last route, ahead of what `init()` adds behind the routes (Nest's not-found handler for the
 * API prefix, which would otherwise answer `/api/v1/openapi.json`, and its error handlers).
 * Nothing `mount` registers answers a path an API route answers, so the order between them
 * changes no response. Returns what `mount` returned.
 */
export async function initWithRoutesFirst<T>(app: INestApplication, mount: () => T): Promise<T> {
  const stack = (app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } }).router.stack;
  const start = stack.length;
  const mounted = mount();
  const moved = stack.splice(start);
  await app.init();
  let at = stack.length;
  while (at > start && !stack[at - 1].route) at--;
  stack.splice(at, 0, ...moved);
  return mounted;
}
