import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** One HTTP response as the API sent it, reduced to what the OpenAPI document can say about it. */
export interface RecordedResponse {
  method: string;
  /** The OpenAPI path of the operation, e.g. `/api/v1/jobs/{job_id}`. */
  path: string;
  /** The concrete address that was asked for, for the reader of a failure. */
  url: string;
  status: number;
  /** The `Content-Type` header as sent, parameters included; undefined when there was none. */
  contentType: string | undefined;
  /** What the body was: none, parsed JSON, or something opaque (a stream, binary, text). */
  body: { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'unparsable'; text: string } | { kind: 'opaque' };
}

export type MismatchKind =
  | 'undocumented_operation'
  | 'undocumented_status'
  | 'undocumented_content_type'
  | 'unexpected_body'
  | 'missing_body'
  | 'invalid_body';

export interface ContractMismatch {
  kind: MismatchKind;
  /** `METHOD path`, the operation as the document names it. */
  operation: string;
  status: number;
  contentType: string | undefined;
  url: string;
  /** One line saying what the document and the response disagree on. */
  reason: string;
  /** For an invalid body: ajv's errors as `instancePath message`. */
  errors: string[];
  /** For an invalid body: the body, trimmed. */
  body?: string;
}

/** `media/type` without parameters, lower-cased. */
export function essenceOf(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

/** `application/json`, `application/problem+json` and any other `+json` type carry a body ajv can check. */
export function isJsonType(contentType: string): boolean {
  const essence = essenceOf(contentType);
  return essence === 'application/json' || essence.endsWith('+json');
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * Keywords of the OpenAPI document that JSON Schema 2020-12 does not define, declared to ajv as
 * annotations so that strict mode stays on for everything else (a typo'd keyword in a schema
 * still fails). The first row is the document's own top level: ajv compiles the registered
 * document itself before it follows a pointer into it. `discriminator` is an annotation here
 * (ajv's own `discriminator` option rejects OpenAPI's `mapping`); the `oneOf` it sits on is
 * what validates. `deprecated`, `readOnly` and `writeOnly` are 2020-12 keywords already.
 */
const OPENAPI_KEYWORDS = [
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'paths',
  'webhooks',
  'components',
  'security',
  'tags',
  'externalDocs',
  'example',
  'discriminator',
  'xml',
];

const DOCUMENT_ID = 'openapi.json';
const BODY_LIMIT = 600;

type Json = Record<string, unknown>;

interface Operation {
  method: string;
  path: string;
  responses: Json;
}

/**
 * Checks responses against an OpenAPI 3.1 document, whose schemas are JSON Schema 2020-12.
 * The document is registered once with ajv under an `$id`, so every `$ref` inside it resolves;
 * a response's schema is compiled the first time a response needs it, then reused.
 */
export class ResponseContract {
  private readonly document: Json;
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: object) {
    const version = (document as Json).openapi;
    if (typeof version !== 'string' || !version.startsWith('3.1.')) {
      throw new Error(`The response contract reads OpenAPI 3.1 documents; this one is ${String(version)}.`);
    }
    this.document = structuredClone(document) as Json;
    // strict stays on (unknown keywords, formats and types fail); union types are how 3.1 says "or null".
    this.ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats(this.ajv);
    for (const keyword of [...OPENAPI_KEYWORDS, ...extensionKeywords(this.document)]) {
      this.ajv.addKeyword({ keyword });
    }
    this.ajv.addSchema(this.document, DOCUMENT_ID);
  }

  /** Every operation of the document as `METHOD path`, in the document's order. */
  operations(): string[] {
    return this.allOperations().map((op) => `${op.method} ${op.path}`);
  }

  /**
   * The document's path for a route pattern of the server (`/api/v1/jobs/:job_id`, `/api/v1/files/*`);
   * parameter names are not compared, only where they are. A route the document has no path for
   * comes back written as one, for `check` to report as undocumented.
   */
  pathOf(route: string): string {
    const openapi = route.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, '{$1}');
    const paths = Object.keys((this.document.paths as Json | undefined) ?? {});
    if (paths.includes(openapi)) return openapi;
    const shape = (path: string) => path.split('/').map((segment) => (/^\{.*\}$|^\*$/.test(segment) ? '{}' : segment));
    const wanted = shape(openapi).join('/');
    return paths.find((path) => shape(path).join('/') === wanted) ?? openapi;
  }

  /** What the document and this response disagree on; an empty list when they agree. */
  check(response: RecordedResponse): ContractMismatch[] {
    const operation = `${response.method.toUpperCase()} ${response.path}`;
    const mismatch = (
      kind: MismatchKind,
      reason: string,
      extra: Partial<ContractMismatch> = {},
    ): ContractMismatch[] => [
      {
        kind,
        operation,
        status: response.status,
        contentType: response.contentType,
        url: response.url,
        reason,
        errors: [],
        ...extra,
      },
    ];

    const found = this.allOperations().find(
      (op) => op.path === response.path && op.method === response.method.toUpperCase(),
    );
    if (!found) return mismatch('undocumented_operation', 'the document has no such operation');

    const status = String(response.status);
    const key = [status, `${status[0]}XX`, 'default'].find((k) => k in found.responses);
    if (!key) {
      const documented = Object.keys(found.responses).join(', ');
      return mismatch('undocumented_status', `status ${status} is not documented (documented: ${documented})`);
    }
    const pointer = ['paths', response.path, found.method.toLowerCase(), 'responses', key];
    const declared = this.resolve(found.responses[key] as Json, pointer);
    const content = (declared.node.content as Json | undefined) ?? {};
    const mediaTypes = Object.keys(content);

    if (mediaTypes.length === 0) {
      if (response.body.kind === 'none') return [];
      return mismatch(
        'unexpected_body',
        `status ${key} is documented without a body, but the response has one (${response.contentType ?? 'no content-type'})`,
      );
    }
    if (response.body.kind === 'none') {
      return mismatch(
        'missing_body',
        `status ${key} is documented with a body (${mediaTypes.join(', ')}), but none came`,
      );
    }
    const mediaType = response.contentType === undefined ? undefined : matchMediaType(response.contentType, mediaTypes);
    if (mediaType === undefined) {
      return mismatch(
        'undocumented_content_type',
        `content-type ${response.contentType ?? '(none)'} is not documented for status ${key} (documented: ${mediaTypes.join(', ')})`,
      );
    }
    if (response.body.kind === 'unparsable') {
      return mismatch('invalid_body', `the ${mediaType} body is not JSON`, { body: trim(response.body.text) });
    }
    if (response.body.kind !== 'json' || !isJsonType(mediaType)) return [];
    const media = content[mediaType] as Json | undefined;
    if (!media || media.schema === undefined) return [];

    const schemaPointer = [...declared.pointer, 'content', mediaType, 'schema'];
    const validate = this.validator(schemaPointer);
    if (validate(response.body.value)) return [];
    const schema = media.schema as Json;
    const named = typeof schema.$ref === 'string' ? schema.$ref : `#${toPointer(schemaPointer)}`;
    return mismatch('invalid_body', `the body does not match ${named}`, {
      errors: (validate.errors ?? []).map(describeError),
      body: trim(JSON.stringify(response.body.value)),
    });
  }

  private allOperations(): Operation[] {
    const operations: Operation[] = [];
    for (const [path, item] of Object.entries((this.document.paths as Json | undefined) ?? {})) {
      for (const method of METHODS) {
        const op = (item as Json)[method] as Json | undefined;
        if (op) operations.push({ method: method.toUpperCase(), path, responses: (op.responses as Json) ?? {} });
      }
    }
    return operations;
  }

  /** A response object, following `$ref: '#/components/responses/…'`, with the pointer to where it lives. */
  private resolve(node: Json, pointer: string[]): { node: Json; pointer: string[] } {
    let current = { node, pointer };
    for (let hops = 0; typeof current.node.$ref === 'string' && hops < 10; hops++) {
      const ref = current.node.$ref;
      if (!ref.startsWith('#/')) throw new Error(`only local references are followed, not ${ref}`);
      const parts = ref.slice(2).split('/').map(unescapePointer);
      const target = parts.reduce<unknown>((at, part) => (at as Json | undefined)?.[part], this.document);
      if (typeof target !== 'object' || target === null) throw new Error(`${ref} resolves to nothing`);
      current = { node: target as Json, pointer: parts };
    }
    return current;
  }

  private validator(pointer: string[]): ValidateFunction {
    const ref = `${DOCUMENT_ID}#${toPointer(pointer)}`;
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    return validate;
  }
}

/** The one declared media type a response's content-type falls under: exact first, then `type/*`, then `*\/*`. */
function matchMediaType(contentType: string, declared: string[]): string | undefined {
  const essence = essenceOf(contentType);
  const [type] = essence.split('/');
  return (
    declared.find((d) => essenceOf(d) === essence) ??
    declared.find((d) => essenceOf(d) === `${type}/*`) ??
    declared.find((d) => essenceOf(d) === '*/*')
  );
}

function describeError(error: ErrorObject): string {
  const at = error.instancePath === '' ? '(body)' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  const detail =
    error.keyword === 'enum'
      ? ` (allowed: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')})`
      : error.keyword === 'additionalProperties'
        ? ` (${String(params.additionalProperty)})`
        : '';
  return `${at} ${error.message ?? error.keyword}${detail}`;
}

function trim(text: string): string {
  return text.length <= BODY_LIMIT ? text : `${text.slice(0, BODY_LIMIT)}… (${text.length} characters)`;
}

/** A JSON pointer as a URI fragment: each segment escaped for the pointer, then for the URI. */
function toPointer(parts: string[]): string {
  return parts.map((part) => `/${encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'))}`).join('');
}

function unescapePointer(part: string): string {
  return decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The `x-…` extension keys the document uses, so that strict mode knows them. */
function extensionKeywords(document: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key.startsWith('x-')) found.add(key);
        walk(value);
      }
    }
  };
  walk(document);
  return [...found];
}

const SHOWN = 20;

/** The message a test fails with: one paragraph per mismatch, the same one from several responses once. */
export function formatMismatches(mismatches: ContractMismatch[]): string {
  const distinct = new Map<string, { mismatch: ContractMismatch; urls: string[] }>();
  for (const m of mismatches) {
    const key = JSON.stringify([m.operation, m.status, m.contentType, m.reason, m.errors]);
    const entry = distinct.get(key);
    if (entry) entry.urls.push(m.url);
    else distinct.set(key, { mismatch: m, urls: [m.url] });
  }
  const entries = [...distinct.values()];
  const paragraphs = entries.slice(0, SHOWN).map(({ mismatch: m, urls }) => {
    const where = urls.length === 1 ? urls[0] : `${urls[0]} and ${urls.length - 1} more like it`;
    const lines = [
      `${m.operation} ${m.status} ${m.contentType ?? '(no content-type)'}   (${where})`,
      `  ${m.reason}`,
      ...m.errors.map((error) => `    ${error}`),
    ];
    if (m.body !== undefined) lines.push(`  body: ${m.body}`);
    return lines.join('\n');
  });
  if (entries.length > SHOWN) paragraphs.push(`… and ${entries.length - SHOWN} more`);
  const count = mismatches.length === 1 ? '1 response' : `${mismatches.length} responses`;
  return `openapi.json does not describe ${count} the API sent:\n\n${paragraphs.join('\n\n')}`;
}
