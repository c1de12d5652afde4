import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { STRUCTURED_RESULT_SCHEMA } from '@docconv/documents';
import { API_KEY_SCHEME, JWT_SCHEME } from '../auth/access.decorator';

export const API_PREFIX = 'api/v1';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('docconv API')
    .setDescription(
      'Upload documents, get an exact price, confirm, and receive faithful Markdown; convert it to XLSX, DOCX, PPTX or HWPX. ' +
        'Every error is RFC 9457 `application/problem+json` with a stable `code`.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, JWT_SCHEME)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, API_KEY_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  document.components ??= {};
  document.components.schemas = {
    ...document.components.schemas,
    StructuredResult: asOpenApi30(STRUCTURED_RESULT_SCHEMA) as SchemaObject,
  };
  return document;
}

/**
 * A JSON Schema (2020-12) in the dialect of OpenAPI 3.0: `const` as a one-value `enum`, a
 * `oneOf` with null as `nullable`, a numeric `exclusiveMinimum` as `minimum` with the flag.
 */
export function asOpenApi30(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asOpenApi30);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    if (key === 'const') out.enum = [value];
    else if (key === 'exclusiveMinimum' && typeof value === 'number') {
      out.minimum = value;
      out.exclusiveMinimum = true;
    } else if (key === 'oneOf' && Array.isArray(value) && value.some(isNull)) {
      const rest = value.filter((v) => !isNull(v));
      Object.assign(out, rest.length === 1 ? (asOpenApi30(rest[0]) as object) : { oneOf: rest.map(asOpenApi30) });
      out.nullable = true;
    } else out[key] = asOpenApi30(value);
  }
  return out;
}

const isNull = (schema: unknown) => (schema as { type?: unknown } | null)?.type === 'null';

/** Swagger UI at `/api/docs`, the document at `/api/v1/openapi.json`. */
export function mountOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: `${API_PREFIX}/openapi.json`,
    yamlDocumentUrl: `${API_PREFIX}/openapi.yaml`,
    customSiteTitle: 'docconv API',
    // No validator badge: it would send the document to validator.swagger.io from the reader's browser.
    swaggerOptions: { validatorUrl: null },
  });
}
