import { formatMismatches, ResponseContract, type RecordedResponse } from './response-contract';

/** A small 3.1 document: one job resource, errors as problem+json, a binary download. */
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'probe', version: '1' },
  'x-tagGroups': [],
  paths: {
    '/api/v1/jobs/{job_id}': {
      get: {
        responses: {
          '200': {
            description: 'The job.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } },
          },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
      delete: { responses: { '204': { description: 'Gone.' } } },
    },
    '/api/v1/files/{path}': {
      get: {
        responses: {
          '200': { description: 'The file.', content: { 'application/octet-stream': {}, 'text/*': {} } },
          '4XX': { $ref: '#/components/responses/NotFound' },
        },
      },
    },
  },
  components: {
    responses: {
      NotFound: {
        description: 'No such thing.',
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      },
    },
    schemas: {
      Job: {
        type: 'object',
        required: ['id', 'status', 'title'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', format: 'uuid', example: '0b6c6bd3-4b07-4ee0-a2b6-2b2f2d3f5f4e' },
          status: { type: 'string', enum: ['queued', 'running', 'done'] },
          title: { type: ['string', 'null'], 'x-nullable-reason': 'untitled' },
          finished_at: { type: 'string', format: 'date-time', readOnly: true },
          kind: {
            oneOf: [{ $ref: '#/components/schemas/Upload' }],
            discriminator: { propertyName: 'type', mapping: { upload: '#/components/schemas/Upload' } },
          },
        },
      },
      Upload: { type: 'object', required: ['type'], properties: { type: { const: 'upload' } } },
      Problem: {
        type: 'object',
        required: ['type', 'title', 'status', 'code'],
        properties: {
          type: { type: 'string' },
          title: { type: 'string' },
          status: { type: 'integer' },
          code: { type: 'string' },
        },
        externalDocs: { url: 'https://www.rfc-editor.org/rfc/rfc9457' },
      },
    },
  },
};

const JOB = { id: '0b6c6bd3-4b07-4ee0-a2b6-2b2f2d3f5f4e', status: 'done', title: 'Q3 report' };
const PROBLEM = { type: 'about:blank', title: 'Not found', status: 404, code: 'not_found' };

function response(overrides: Partial<RecordedResponse> = {}): RecordedResponse {
  return {
    method: 'GET',
    path: '/api/v1/jobs/{job_id}',
    url: `/api/v1/jobs/${JOB.id}`,
    status: 200,
    contentType: 'application/json; charset=utf-8',
    body: { kind: 'json', value: JOB },
    ...overrides,
  };
}

describe('ResponseContract', () => {
  const contract = new ResponseContract(DOCUMENT);

  it('accepts responses the document describes', () => {
    expect(contract.check(response())).toEqual([]);
    expect(contract.check(response({ body: { kind: 'json', value: { ...JOB, title: null } } }))).toEqual([]);
    expect(
      contract.check(
        response({ status: 404, contentType: 'application/problem+json', body: { kind: 'json', value: PROBLEM } }),
      ),
    ).toEqual([]);
    expect(
      contract.check(response({ method: 'DELETE', status: 204, contentType: undefined, body: { kind: 'none' } })),
    ).toEqual([]);
  });

  it('matches content-types by range and statuses by class', () => {
    const file = { path: '/api/v1/files/{path}', url: '/api/v1/files/a/b.md' };
    expect(
      contract.check(response({ ...file, contentType: 'text/markdown; charset=utf-8', body: { kind: 'opaque' } })),
    ).toEqual([]);
    expect(
      contract.check(
        response({
          ...file,
          status: 403,
          contentType: 'application/problem+json',
          body: { kind: 'json', value: PROBLEM },
        }),
      ),
    ).toEqual([]);
  });

  it('reports an operation the document does not have', () => {
    expect(contract.check(response({ method: 'PATCH' }))).toMatchObject([
      { kind: 'undocumented_operation', operation: 'PATCH /api/v1/jobs/{job_id}' },
    ]);
    expect(contract.check(response({ path: '/api/v1/keys' }))).toMatchObject([{ kind: 'undocumented_operation' }]);
  });

  it('reports an undocumented status', () => {
    const [mismatch] = contract.check(
      response({ status: 409, contentType: 'application/problem+json', body: { kind: 'json', value: PROBLEM } }),
    );
    expect(mismatch).toMatchObject({ kind: 'undocumented_status', status: 409 });
    expect(mismatch.reason).toBe('status 409 is not documented (documented: 200, 404)');
  });

  it('reports a content-type the response does not declare', () => {
    const [mismatch] = contract.check(response({ status: 404, body: { kind: 'json', value: PROBLEM } }));
    expect(mismatch).toMatchObject({ kind: 'undocumented_content_type' });
    expect(mismatch.reason).toContain('(documented: application/problem+json)');
  });

  it('reports a body where the document says none, and none where it says one', () => {
    const deleted = { method: 'DELETE', status: 204 };
    expect(contract.check(response(deleted))).toMatchObject([{ kind: 'unexpected_body' }]);
    expect(contract.check(response({ body: { kind: 'none' } }))).toMatchObject([{ kind: 'missing_body' }]);
  });

  it('reports a body that breaks the schema, with instance paths', () => {
    const broken = { id: JOB.id, status: 'lost', title: 7, finished_at: null, extra: true };
    const [mismatch] = contract.check(response({ body: { kind: 'json', value: broken } }));
    expect(mismatch.kind).toBe('invalid_body');
    expect(mismatch.reason).toBe('the body does not match #/components/schemas/Job');
    expect(mismatch.errors).toEqual(
      expect.arrayContaining([
        '(body) must NOT have additional properties (extra)',
        '/status must be equal to one of the allowed values (allowed: "queued", "running", "done")',
        '/title must be string,null',
        '/finished_at must be string',
      ]),
    );
    expect(mismatch.body).toContain('"status":"lost"');
  });

  it('reports a missing required property and a format violation', () => {
    const untitled = { id: 'x', status: JOB.status };
    expect(contract.check(response({ body: { kind: 'json', value: untitled } }))[0].errors).toEqual([
      "(body) must have required property 'title'",
      '/id must match format "uuid"',
    ]);
  });

  it('reports a JSON content-type whose body is not JSON', () => {
    expect(contract.check(response({ body: { kind: 'unparsable', text: '<html>' } }))).toMatchObject([
      { kind: 'invalid_body', reason: 'the application/json body is not JSON', body: '<html>' },
    ]);
  });

  it('finds the document path of a server route, and writes one the document lacks as a path', () => {
    expect(contract.pathOf('/api/v1/jobs/:job_id')).toBe('/api/v1/jobs/{job_id}');
    expect(contract.pathOf('/api/v1/jobs/:id')).toBe('/api/v1/jobs/{job_id}');
    expect(contract.pathOf('/api/v1/files/*')).toBe('/api/v1/files/{path}');
    expect(contract.pathOf('/api/v1/keys/:key_id')).toBe('/api/v1/keys/{key_id}');
    expect(contract.operations()).toEqual([
      'GET /api/v1/jobs/{job_id}',
      'DELETE /api/v1/jobs/{job_id}',
      'GET /api/v1/files/{path}',
    ]);
  });
});

describe('formatMismatches', () => {
  it('names each disagreement once, with where it was seen', () => {
    const contract = new ResponseContract(DOCUMENT);
    const conflict = (id: string) =>
      contract.check(
        response({
          url: `/api/v1/jobs/${id}`,
          status: 409,
          contentType: 'application/problem+json',
          body: { kind: 'json', value: PROBLEM },
        }),
      );
    const broken = contract.check(response({ body: { kind: 'json', value: { ...JOB, status: 'lost' } } }));
    expect(formatMismatches([...conflict('a'), ...conflict('b'), ...broken])).toBe(
      [
        'openapi.json does not describe 3 responses the API sent:',
        '',
        'GET /api/v1/jobs/{job_id} 409 application/problem+json   (/api/v1/jobs/a and 1 more like it)',
        '  status 409 is not documented (documented: 200, 404)',
        '',
        `GET /api/v1/jobs/{job_id} 200 application/json; charset=utf-8   (/api/v1/jobs/${JOB.id})`,
        '  the body does not match #/components/schemas/Job',
        '    /status must be equal to one of the allowed values (allowed: "queued", "running", "done")',
        `  body: ${JSON.stringify({ ...JOB, status: 'lost' })}`,
      ].join('\n'),
    );
  });
});

describe('a document that is not OpenAPI 3.1', () => {
  it('is refused, since its schemas are not JSON Schema 2020-12', () => {
    expect(() => new ResponseContract({ openapi: '3.0.0', info: { title: 'probe', version: '1' }, paths: {} })).toThrow(
      'The response contract reads OpenAPI 3.1 documents; this one is 3.0.0.',
    );
  });
});
