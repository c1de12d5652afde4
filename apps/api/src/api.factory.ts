import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@docconv/config';
import { createRootLogger, PinoNestLogger } from '@docconv/logging';
import { ApiModule } from './api.module';
import { chain } from './http/chain';
import { ApiHttpAdapter } from './http/http-adapter';
import { initWithRoutesFirst } from './http/layer-order';
import { mountConsole } from './console/console-static';
import { jsonBodyParser } from './errors/json-body';
import { notFound } from './http/not-found';
import { securityHeaders } from './http/security-headers';
import { createValidationPipe } from './errors/validation';
import { requestLogging } from './logging/request-logging';
import { API_PREFIX, mountOpenApi } from './openapi/openapi';

export interface ApiAppOptions {
  /** Build the module graph without connecting anything (used to write openapi.json). */
  preview?: boolean;
  /** Extra modules mounted beside the API (tests use it to reach the error filter with a probe route). */
  extraModules?: Type[];
}

/** Builds and initialises the HTTP application exactly as production runs it; tests and main.ts share it. */
export async function createApiApp(config: AppConfig, options: ApiAppOptions = {}): Promise<INestApplication> {
  const root = createRootLogger(config.logLevel, 'api');
  const app = await NestFactory.create<NestExpressApplication>(
    ApiModule.forRoot(config, options.extraModules),
    new ApiHttpAdapter(config.http),
    {
      logger: new PinoNestLogger(root),
      bodyParser: false,
      preview: options.preview ?? false,
      abortOnError: false,
    },
  );
  app.disable('x-powered-by');
  // Every API answer is `Cache-Control: private, no-store`: no cache keeps it to revalidate, so
  // hashing each body into an ETag would be wasted (the console's files keep theirs).
  app.set('etag', false);
  app.set('trust proxy', 'loopback');
  // One layer of Express's router for what every request passes through.
  app.use(chain(securityHeaders(), requestLogging(root), jsonBodyParser()));
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(createValidationPipe());
  if (options.preview) {
    mountOpenApi(app);
    return app;
  }
  const consoleServed = await initWithRoutesFirst(app, () => {
    mountOpenApi(app);
    return mountConsole(app, config.console.dir, root);
  });
  app.use(notFound(consoleServed)); // after every route the application registered
  return app;
}
