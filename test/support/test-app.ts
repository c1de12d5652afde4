import type { INestApplication } from '@nestjs/common';
import { loadConfig, type AppConfig } from '@docconv/config';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { randomUUID } from 'node:crypto';
import { createApiApp, type ApiAppOptions } from '../../apps/api/src/api.factory';
import { responseRecorder } from './contract';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  http: TestAgent;
  close(): Promise<void>;
}

/**
 * The real API application on the test database and Redis prefix, served in-process. In the
 * main suite, every response it sends is checked against openapi.json (test/support/contract.ts).
 */
export async function createTestApp(
  options: ApiAppOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<TestApp> {
  const config = loadConfig(env);
  const extraModules = options.extraModules ?? [];
  const app = await createApiApp(config, {
    ...options,
    extraModules: [...extraModules, responseRecorder(extraModules)],
  });
  await app.init();
  return { app, config, http: request(app.getHttpServer()), close: () => app.close() };
}

export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${randomUUID().slice(0, 12)}@example.test`;
}
