import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { API_KEY_SCHEME, JWT_SCHEME } from '../auth/access.decorator';

export const API_PREFIX = 'api/v1';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('docconv API')
    .setDescription(
      'Upload documents, get an exact price, confirm, and receive faithful Markdown; convert it to XLSX, DOCX or PPTX. ' +
        'Every error is RFC 9457 `application/problem+json` with a stable `code`.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, JWT_SCHEME)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, API_KEY_SCHEME)
    .build();
  return SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
}

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
