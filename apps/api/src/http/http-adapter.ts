import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { AppConfig } from '@docconv/config';
import { createServer } from 'node:http';

/** How often the server looks for connections past their header or request deadline. */
const CHECK_INTERVAL_MS = 1000;

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
}
