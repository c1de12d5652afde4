import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@docconv/testing';
import { ERROR_CODES } from '@docconv/contracts';
import { createTestApp, type TestApp } from './support/test-app';

const DOCUMENT = join(REPO_ROOT, 'openapi.json');
const BIN = join(REPO_ROOT, 'node_modules', '.bin');

interface Finding {
  rule: string;
  severity: 'error' | 'warning';
  where: string;
  message: string;
}

function run(command: string, args: string[]): string {
  const result = spawnSync(join(BIN, command), args, { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  if (result.error) throw result.error;
  return result.stdout;
}

/** `@redocly/cli lint` with its recommended rules. */
function redocly(): Finding[] {
  const report = JSON.parse(run('redocly', ['lint', DOCUMENT, '--format', 'json'])) as {
    problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
  };
  return report.problems.map((p) => ({
    rule: p.ruleId,
    severity: p.severity === 'error' ? 'error' : 'warning',
    where: p.location[0]?.pointer ?? '',
    message: p.message,
  }));
}

/** Spectral with its `spectral:oas` ruleset (.spectral.yaml). */
function spectral(): Finding[] {
  const ruleset = join(REPO_ROOT, '.spectral.yaml');
  const findings = JSON.parse(
    run('spectral', ['lint', DOCUMENT, '--ruleset', ruleset, '--format', 'json', '--fail-severity', 'error']),
  ) as { code: string; severity: number; message: string; path: string[] }[];
  return findings.map((f) => ({
    rule: f.code,
    severity: f.severity === 0 ? 'error' : 'warning',
    where: f.path.join('.'),
    message: f.message,
  }));
}

describe('the OpenAPI document passes third-party linters', () => {
  it.each([
    ['@redocly/cli lint', redocly],
    ['Spectral (spectral:oas)', spectral],
  ])('%s reports no error', (_name, lint) => {
    const findings = lint();
    expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
    // The linters run for real: a document they cannot read gives no findings at all, so a
    // known warning (the committed document names a local server) must be among them.
    expect(findings.length).toBeGreaterThan(0);
  });
});

describe('the OpenAPI document tells the truth about every operation', () => {
  const document = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as {
    openapi: string;
    servers: { url: string }[];
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, { enum?: unknown[] }> };
  };
  interface Operation {
    operationId: string;
    security?: unknown[];
    responses: Record<string, { content?: Record<string, unknown> }>;
  }
  const operations = Object.values(document.paths).flatMap((item) => Object.values(item));

  it('is OpenAPI 3.1 with a server and one problem schema whose code lists every error code', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'http://localhost:3000' }]);
    expect(document.components.schemas.ErrorCode?.enum).toEqual([...ERROR_CODES]);
  });

  it.each(operations.map((o) => [o.operationId, o] as const))(
    '%s: declares its security, a success response and problem+json for each error',
    (_id, operation) => {
      expect(Array.isArray(operation.security)).toBe(true);
      const statuses = Object.keys(operation.responses).map(Number);
      expect(statuses.some((s) => s >= 200 && s < 300)).toBe(true);
      for (const status of statuses.filter((s) => s >= 400)) {
        expect(operation.responses[String(status)]?.content).toEqual({
          'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
        });
      }
    },
  );
});

describe('the served OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('names `/` as its server without a public URL: Swagger UI calls where it was served, whatever Host said', async () => {
    const served = await t.http.get('/api/v1/openapi.json').set('Host', 'docs.example.test:8443').expect(200);
    expect(served.body.servers).toEqual([{ url: '/' }]);
  });

  it('names the configured public URL instead when there is one', async () => {
    const configured = await createTestApp({}, { ...process.env, PUBLIC_BASE_URL: 'https://api.example.test/' });
    try {
      const served = await configured.http.get('/api/v1/openapi.json').expect(200);
      expect(served.body.servers).toEqual([{ url: 'https://api.example.test' }]);
    } finally {
      await configured.close();
    }
  });
});
