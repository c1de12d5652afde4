import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { CHUNK_LIST_SCHEMA, STRUCTURED_RESULT_SCHEMA } from '@docconv/documents';
import { API_KEY_SCHEME, JWT_SCHEME } from '../auth/access.decorator';
import { applyDocumentRules } from './document-rules';

export const API_PREFIX = 'api/v1';

/** Where the committed document says the API is: a local docconv, as `./scripts/start.sh` starts it. */
export const DEFAULT_SERVER_URL = 'http://localhost:3000';

/**
 * The API's OpenAPI 3.1 document. `serverUrl` is the origin it is served at (paths carry the
 * `/api/v1` prefix); the served copy names the public URL, or `/` (the origin the document was
 * read at, resolved by the reader) without one — never an origin a request names.
 */
export function buildOpenApiDocument(app: INestApplication, serverUrl = DEFAULT_SERVER_URL): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('docconv API')
    .setDescription(
      'Upload documents, get an exact price, confirm, and receive faithful Markdown; convert it to XLSX, DOCX, PPTX or HWPX. ' +
        'Every error is RFC 9457 `application/problem+json` (schema `Problem`) with a stable `code`.',
    )
    .setVersion('1')
    .setContact('docconv', 'https://docconv.dev', 'support@docconv.dev')
    .addServer(serverUrl)
    .addTag('auth', 'Accounts and session tokens (JWT).')
    .addTag('keys', 'API keys: scopes, rate limits and daily quotas. Managed with a session token.')
    .addTag('jobs', 'Upload, price, confirm, follow, download and convert.')
    .addTag('account', 'Balance, transactions, usage, payments and the webhook signing secret.')
    .addTag('payments', 'Buying credits.')
    .addTag('pricing', 'The price table.')
    .addTag('capabilities', 'Accepted formats, engines and limits of this deployment.')
    .addTag('files', 'Signed download links.')
    .addTag('health', 'Liveness and readiness.')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, JWT_SCHEME)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, API_KEY_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  document.components ??= {};
  document.components.schemas = {
    ...document.components.schemas,
    StructuredResult: withoutDialect(STRUCTURED_RESULT_SCHEMA) as SchemaObject,
    ChunkList: withoutDialect(CHUNK_LIST_SCHEMA) as SchemaObject,
  };
  applyDocumentRules(document);
  return document;
}

/** A JSON Schema 2020-12 document as an OpenAPI 3.1 schema: the same dialect, without `$schema`. */
function withoutDialect(schema: object): object {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema'));
}

/** Swagger UI at `/api/docs`, the document at `/api/v1/openapi.json`. */
export function mountOpenApi(app: INestApplication, publicBaseUrl: string | null): void {
  // Try-it-out calls the public URL, or without one the server that served the page.
  const document = buildOpenApiDocument(app, publicBaseUrl ?? '/');
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: `${API_PREFIX}/openapi.json`,
    yamlDocumentUrl: `${API_PREFIX}/openapi.yaml`,
    customSiteTitle: 'docconv API',
    swaggerOptions: {
      // No validator badge: it would send the document to validator.swagger.io from the reader's browser.
      validatorUrl: null,
      // The key or token given in Authorize stays through a reload of the page.
      persistAuthorization: true,
      displayRequestDuration: true,
      filter: true,
    },
  });
}
