import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { AppConfig } from '@docconv/config';
import type { Request, Response } from 'express';
import { createServer } from 'node:http';

/** How often the server looks for connections past their header or request deadline. */
const CHECK_INTERVAL_MS = 1000;

/** Express's Content-Type for `res.json()`: its type, with the charset `res.send()` adds. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Express under an HTTP server that ends slow clients: request line and headers within
 * `headersTimeoutMs`, the whole request (an upload's body included) within `requestTimeoutMs`,
 * both checked every second rather than Node's default half-minute.
 */
export class ApiHttpAdapter extends ExpressAdapter {
  constructor(private readonly settings: AppConfig['http']) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions) throw new Error('the API serves plain HTTP; terminate TLS in front of it');
    this.setHttpServer(
      createServer(
        {
          headersTimeout: this.settings.headersTimeoutMs,
          requestTimeout: this.settings.requestTimeoutMs,
          connectionsCheckingInterval: CHECK_INTERVAL_MS,
        },
        this.getInstance(),
      ),
    );
  }

  /**
   * A route's JSON answer (a plain object or array) is written as `res.json()` writes it (the
   * same body, Content-Type and Content-Length) without the steps of Express's `res.send()` that
   * an API answer never takes: an ETag (disabled), a 304 for a conditional request, a body
   * stripped for 204/205/304, a Content-Type already set. Anything else, and any request those
   * steps could apply to, goes through Nest's own `reply`.
   */
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!isJsonAnswer(body, response, statusCode)) return super.reply(response, body, statusCode);
    const json = JSON.stringify(body) as string | undefined;
    if (json === undefined) return super.reply(response, body, statusCode);
    if (statusCode !== undefined) response.status(statusCode);
    response.setHeader('Content-Type', JSON_CONTENT_TYPE);
    response.setHeader('Content-Length', Buffer.byteLength(json));
    if (response.req.method === 'HEAD') response.end();
    else response.end(json, 'utf8');
    return response;
  }
}

/** A plain object or array sent with a status and a request that `res.send()` would not treat otherwise. */
function isJsonAnswer(body: unknown, response: Response, statusCode: number | undefined): boolean {
  if (typeof body !== 'object' || body === null || ArrayBuffer.isView(body)) return false;
  const prototype = Object.getPrototypeOf(body) as unknown;
  if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) return false;
  const status = statusCode ?? response.statusCode;
  if (status === 204 || status === 205 || status === 304) return false;
  const request: Request = response.req;
  const headers = request.headers;
  if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) return false;
  if (response.hasHeader('Content-Type') || response.hasHeader('Transfer-Encoding') || response.hasHeader('ETag'))
    return false;
  const settings = request.app.settings as Record<string, unknown>;
  return (
    settings['etag fn'] === undefined &&
    settings['json replacer'] === undefined &&
    settings['json spaces'] === undefined &&
    settings['json escape'] === undefined
  );
}
