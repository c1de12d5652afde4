import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ParameterObject,
  PathItemObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ERROR_CODES } from '@docconv/contracts';
import { PROBLEM_CONTENT_TYPE } from '../errors/problem';
import { statusOf } from '../errors/status-of';

/**
 * What the API does on every operation, written into the document once instead of on each
 * route: the problem+json body of every error, the refusals every route of a kind can give,
 * `security: []` on public routes and the shape of id parameters. The routes' own decorators
 * document what is particular to them; these rules only add what is missing.
 */
export function applyDocumentRules(document: OpenAPIObject): void {
  document.components ??= {};
  document.components.schemas = { ...document.components.schemas, ...structuredClone(PROBLEM_SCHEMAS) };
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    if (!FOREIGN_SCHEMAS.has(name)) wholeNumbers(schema);
  }
  for (const item of Object.values<PathItemObject>(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      applyOperationRules(operation);
      for (const parameter of (operation.parameters ?? []) as ParameterObject[]) wholeNumbers(parameter.schema);
    }
  }
}

/** Schemas written as JSON Schema elsewhere and published as they are. */
const FOREIGN_SCHEMAS = new Set(['StructuredResult', 'ChunkList']);

/**
 * Counts, points, bytes and seconds are whole numbers: a `number` is an `integer` unless its
 * declaration says `format: 'double'` (prices, OCR confidence, reading time), so generated
 * clients get integer types and the contract test refuses a fraction where none belongs. An
 * integer is 64-bit unless declared otherwise: balances, byte counts and a key's daily quota
 * (up to 10^12) pass 2^31.
 */
function wholeNumbers(schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach(wholeNumbers);
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as { type?: unknown; format?: unknown };
  if (node.format === undefined) {
    if (node.type === 'number') node.type = 'integer';
    if (Array.isArray(node.type)) node.type = node.type.map((t: unknown) => (t === 'number' ? 'integer' : t));
    const types: unknown[] = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes('integer')) node.format = 'int64';
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key !== 'example' && key !== 'examples' && key !== 'default' && key !== 'enum') wholeNumbers(value);
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };

const PROBLEM_SCHEMAS: Record<string, SchemaObject> = {
  ErrorCode: {
    type: 'string',
    enum: [...ERROR_CODES],
    description: 'Stable, machine-readable error code: branch on it, not on `title` or `detail`.',
  },
  FieldError: {
    type: 'object',
    required: ['field', 'message'],
    properties: {
      field: { type: 'string', example: 'email' },
      message: { type: 'string', example: 'must be an email address' },
    },
  },
  Problem: {
    type: 'object',
    description:
      'RFC 9457 problem details: every error of this API, as `application/problem+json`. Some codes add members: ' +
      '`insufficient_credits` gives `needed` and `balance`; `daily_quota_exceeded` gives `daily_quota`, ' +
      '`daily_spent_points` and `needed`; a failed or running XLSX Advanced conversion gives `xlsx_advanced_status`; ' +
      'readiness gives `checks`.',
    required: ['type', 'title', 'status', 'detail', 'code'],
    properties: {
      type: { type: 'string', format: 'uri', example: 'https://docconv.dev/problems/insufficient-credits' },
      title: { type: 'string', example: 'Not enough credits' },
      status: { type: 'integer', minimum: 400, maximum: 599, example: 402 },
      detail: { type: 'string', description: 'What happened and what to do next, for a person.' },
      code: { $ref: '#/components/schemas/ErrorCode' },
      errors: {
        type: 'array',
        items: { $ref: '#/components/schemas/FieldError' },
        description: 'With `validation_failed`: each field that was refused.',
      },
      instance: { type: 'string', description: 'The request path.', example: '/api/v1/jobs' },
      error_id: { type: 'string', description: 'With `internal_error`: quote it to support.' },
      needed: { type: 'integer', description: 'Points the request needs.' },
      balance: { type: 'integer', description: 'Points the account holds.' },
      daily_quota: { type: 'integer', description: 'The API key’s points per UTC day.' },
      daily_spent_points: { type: 'integer', description: 'Points the key spent today (UTC).' },
      xlsx_advanced_status: { type: 'string', enum: ['processing', 'error'] },
      xlsx_advanced_refundable: { type: 'boolean' },
      checks: { type: 'object', additionalProperties: true, description: 'Readiness: the state of each dependency.' },
    },
    additionalProperties: true,
  },
};

/** What a status means on any route, with the codes it can carry. */
function describeStatus(status: number, what: string): string {
  const codes = ERROR_CODES.filter((code) => Number(statusOf(code)) === status).map((code) => `\`${code}\``);
  return codes.length > 0 ? `${what} (${codes.join(', ')})` : what;
}

function applyOperationRules(operation: OperationObject): void {
  operation.security ??= [];
  const responses = operation.responses as Record<string, ResponseObject>;
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  const add = (status: number, what: string) => {
    responses[String(status)] ??= { description: describeStatus(status, what) };
  };

  if (parameters.length > 0 || operation.requestBody) add(400, 'The request is invalid; `detail` says why');
  if (parameters.some((p) => p.in === 'path' && p.name.endsWith('_id'))) add(404, 'Not found, or not yours');
  if (operation.security.length > 0) {
    add(401, 'Missing, malformed, unknown or deactivated credential');
    add(404, 'The account the credential names no longer exists');
    add(429, 'Too many requests for this credential; wait the seconds `Retry-After` gives');
  }
  if (operation.requestBody) {
    add(413, 'The request body is too large');
    add(415, 'The body is not in a media type this operation accepts');
  }
  if (parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')) {
    add(422, 'The Idempotency-Key was used for a different request');
  }
  add(500, 'An unexpected error; `error_id` identifies it in the log');
  add(503, 'A dependency is unavailable; try again after `Retry-After` seconds');

  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) >= 400) response.content = { [PROBLEM_CONTENT_TYPE]: { schema: PROBLEM_REF } };
  }
  for (const parameter of parameters) {
    if (parameter.in === 'path' && parameter.name.endsWith('_id')) {
      parameter.schema = { type: 'string', format: 'uuid' };
      parameter.example ??= EXAMPLE_ID;
    }
  }
}

const EXAMPLE_ID = '3f1c0d2e-5b7a-4c1e-9d2f-6a8b0c4e1f27';
