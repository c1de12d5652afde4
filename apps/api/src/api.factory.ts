import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@docconv/config';
import { createRootLogger, PinoNestLogger } from '@docconv/logging';
import { ApiModule } from './api.module';
import { ApiHttpAdapter } from './http/http-adapter';
import { mountConsole } from './console/console-static';
import { registerBodyParsers } from './errors/json-body';
import { notFound } from './http/not-found';
import { securityHeaders } from './http/security-headers';
import { createValidationPipe } from './errors/validation';
import { requestLogging } from './logging/request-logging';
import { API_PREFIX, mountOpenApi } from './openapi/openapi';
import { OperatorMetrics } from './operator/operator-metrics.service';
import { mountOperator } from './operator/operator-routes';

export interface ApiAppOptions {
  /** Build the module graph without connecting anything (used to write openapi.json). */
  preview?: boolean;
  /** Extra modules mounted beside the API (tests use it to reach the error filter with a probe route). */
  extraModules?: Type[];
}

/** Builds and initialises the HTTP application exactly as production runs it; tests and main.ts share it. */
export async function createApiApp(config: AppConfig, options: ApiAppOptions = {}): Promise<INestApplication> {
  const root = createRootLogger(config.logLevel, 'api', config.logFormat);
  const adapter = new ApiHttpAdapter(config.http);
  const app = await NestFactory.create<NestFastifyApplication>(
    ApiModule.forRoot(config, options.extraModules),
    adapter,
    {
      logger: new PinoNestLogger(root),
      bodyParser: false,
      preview: options.preview ?? false,
      abortOnError: false,
    },
  );
  const server = app.getHttpAdapter().getInstance();
  const headers = securityHeaders();
  const logged = requestLogging(root);
  // What every request passes through first, routed or not: its headers, its id and its log line.
  server.addHook('onRequest', (request, reply, done) => {
    headers(request.url.split('?')[0], reply.raw);
    logged(request.raw, reply.raw, done);
  });
  if (!options.preview) {
    const metrics = app.get(OperatorMetrics);
    server.addHook('onResponse', (request, reply, done) => {
      metrics.request(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
      done();
    });
  }
  registerBodyParsers(server);
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(createValidationPipe());
  mountOpenApi(app, config.publicBaseUrl);
  if (options.preview) return app;
  await mountOperator(server, app, config);
  adapter.useNotFound(notFound(await mountConsole(server, config.console.dir, root)));
  await app.init();
  await server.ready();
  return app;
}
