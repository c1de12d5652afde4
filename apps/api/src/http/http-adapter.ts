import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { AppConfig } from '@docconv/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createServer, type RequestListener } from 'node:http';

type RouteHandler = (request: FastifyRequest, reply: FastifyReply) => void;

/** How often the server looks for connections past their header or request deadline. */
const CHECK_INTERVAL_MS = 1000;

/**
 * Longer than any path segment a client has reason to send. Beyond its limit, Fastify's router
 * answers 414 before any route sees the request; a long job id still reaches its route and gets
 * the route's own 400.
 */
const MAX_PARAM_LENGTH = 8192;

/**
 * Fastify under an HTTP server that ends slow clients: request line and headers within
 * `headersTimeoutMs`, the whole request (an upload's body included) within `requestTimeoutMs`,
 * both checked every second rather than Node's default half-minute. Requests through a trusted
 * proxy (`TRUSTED_PROXIES`, default the same host) are attributed to the address it forwards;
 * the router matches a path with or without its trailing slash. Fastify's own logger is off:
 * the API logs each request itself.
 */
export class ApiHttpAdapter extends FastifyAdapter {
  /** The API's answer for an address no route has, in place of Nest's (see `not-found.ts`). */
  private notFound?: RouteHandler;

  constructor(settings: AppConfig['http']) {
    super({
      logger: false,
      trustProxy: settings.trustedProxies,
      routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
      skipMiddie: true,
      serverFactory: (handler: RequestListener) =>
        createServer(
          {
            headersTimeout: settings.headersTimeoutMs,
            requestTimeout: settings.requestTimeoutMs,
            connectionsCheckingInterval: CHECK_INTERVAL_MS,
          },
          handler,
        ),
    });
  }

  /** Answers addresses no route has with `handler`, whatever Nest installs when it starts. */
  useNotFound(handler: RouteHandler): void {
    this.notFound = handler;
  }

  /**
   * Closes Fastify, and the HTTP server with it even when something other than Fastify made it
   * listen (tests listen on `getHttpServer()` directly): Fastify closes only a server it started.
   */
  override async close(): Promise<void> {
    await super.close();
    const server = this.getHttpServer();
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  }

  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- Nest's own signature
  override setNotFoundHandler(handler: Function): ReturnType<FastifyAdapter['setNotFoundHandler']> {
    return super.setNotFoundHandler(this.notFound ?? handler);
  }
}
