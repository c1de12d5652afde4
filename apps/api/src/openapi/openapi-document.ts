import type { OpenAPIObject } from '@nestjs/swagger';
import { loadConfig } from '@docconv/config';
import { createApiApp } from '../api.factory';
import { buildOpenApiDocument } from './openapi';

/**
 * The OpenAPI document exactly as the API serves it, built without connecting to anything
 * (the module graph in preview mode), so it can be written to `openapi.json` anywhere.
 */
export async function generateOpenApiDocument(): Promise<OpenAPIObject> {
  const config = loadConfig({
    DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
    REDIS_URL: 'redis://127.0.0.1:1',
    JWT_SECRET: 'openapi-generation-only-'.padEnd(32, '-'),
    FILE_URL_SECRET: 'openapi-generation-only-'.padEnd(32, '-'),
    LOG_LEVEL: 'silent',
  });
  const app = await createApiApp(config, { preview: true });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
