import { Module, type OnModuleInit, type Type } from '@nestjs/common';
import { MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  isJsonType,
  REPO_ROOT,
  ResponseContract,
  type ContractMismatch,
  type FileCoverage,
  type RecordedResponse,
} from '@docconv/testing';

/**
 * Every response the in-process API sends during a test file, checked against the committed
 * openapi.json. The state lives in this module, and Jest gives each test file its own module
 * registry, so it is the file's own; test/support/contract-setup.ts reads it after each test.
 */

const API = '/api/v1/';
/** Served beside the operations, not operations themselves. */
const DOCUMENT_ROUTES = new Set(['/api/v1/openapi.json', '/api/v1/openapi.yaml']);

interface Sent {
  method: string;
  route: string;
  url: string;
  status: number;
  contentType: string | undefined;
  body: RecordedResponse['body'];
}

const state = {
  /** Set by test/support/contract-setup.ts: suites that do not load it record nothing. */
  checking: false,
  contract: undefined as ResponseContract | undefined,
  pending: [] as Sent[],
  coverage: {
    validated: 0,
    unmatched: 0,
    outside: 0,
    probes: 0,
    milliseconds: 0,
    operations: {} as Record<string, Record<string, number>>,
  },
};

function contract(): ResponseContract {
  state.contract ??= new ResponseContract(JSON.parse(readFileSync(join(REPO_ROOT, 'openapi.json'), 'utf8')) as object);
  return state.contract;
}

/**
 * A module for `createApiApp`'s `extraModules` that adds the recording hooks to the Fastify
 * instance while the application initialises (its `onModuleInit` runs inside `app.init()`,
 * before the instance is ready, which is the last moment Fastify takes hooks). The routes of
 * the other extra modules (a test's probe controllers) are counted but not checked.
 */
export function responseRecorder(extraModules: Type[] = []): Type {
  const probes = extraModules
    .flatMap((module) => (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? []) as Type[])
    .flatMap((controller) => [Reflect.getMetadata(PATH_METADATA, controller) as string | string[]].flat())
    .map((path) => `${API}${path.replace(/^\/+|\/+$/g, '')}`);

  @Module({})
  class ResponseRecorderModule implements OnModuleInit {
    constructor(private readonly host: HttpAdapterHost) {}

    onModuleInit(): void {
      if (state.checking) recordResponses(this.host.httpAdapter.getInstance<FastifyInstance>(), probes);
    }
  }
  return ResponseRecorderModule;
}

function recordResponses(server: FastifyInstance, probes: string[]): void {
  const seen = new WeakSet<FastifyRequest>();
  const inScope = (request: FastifyRequest): string | undefined => {
    const route = request.routeOptions.url;
    if (route === undefined) state.coverage.unmatched++;
    else if (!route.startsWith(API) || DOCUMENT_ROUTES.has(route)) state.coverage.outside++;
    else if (probes.some((probe) => route === probe || route.startsWith(`${probe}/`))) state.coverage.probes++;
    else return route;
    return undefined;
  };

  // Responses sent through Fastify: the serialized payload, as it goes out.
  server.addHook('onSend', (request, reply, payload, done) => {
    seen.add(request);
    const started = performance.now();
    const route = inScope(request);
    if (route !== undefined) {
      const contentType = headerOf(reply, 'content-type');
      state.pending.push({ ...identify(request, reply, route), contentType, body: bodyOf(payload, contentType) });
    }
    state.coverage.milliseconds += performance.now() - started;
    done(null, payload);
  });
  // Responses written to the raw socket (Server-Sent Events): status and content-type when they close.
  server.addHook('onRequest', (request, reply, done) => {
    reply.raw.once('close', () => {
      if (seen.has(request) || !reply.raw.headersSent) return;
      const route = inScope(request);
      if (route === undefined) return;
      const type = reply.raw.getHeader('content-type');
      const length = reply.raw.getHeader('content-length');
      state.pending.push({
        ...identify(request, reply, route),
        status: reply.raw.statusCode,
        contentType: type === undefined ? undefined : String(type),
        body: String(length) === '0' ? { kind: 'none' } : { kind: 'opaque' },
      });
    });
    done();
  });
}

function identify(request: FastifyRequest, reply: FastifyReply, route: string) {
  return { method: request.method, route, url: request.url.split('?')[0], status: reply.statusCode };
}

function headerOf(reply: FastifyReply, name: string): string | undefined {
  const value = reply.getHeader(name);
  return value === undefined ? undefined : String(value);
}

function bodyOf(payload: unknown, contentType: string | undefined): RecordedResponse['body'] {
  if (payload === null || payload === undefined) return { kind: 'none' };
  if (payload instanceof Readable) return { kind: 'opaque' };
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
  if (text === undefined) return { kind: 'opaque' };
  if (text.length === 0) return { kind: 'none' };
  if (contentType === undefined || !isJsonType(contentType)) return { kind: 'opaque' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'unparsable', text };
  }
}

/** Makes the apps this test file creates record their responses, for `checkRecordedResponses`. */
export function checkEveryResponse(): void {
  state.checking = true;
}

/** Checks what was sent since the last call and returns what disagrees with the document. */
export function checkRecordedResponses(): ContractMismatch[] {
  const sent = state.pending.splice(0);
  if (sent.length === 0) return [];
  const started = performance.now();
  const document = contract();
  const mismatches: ContractMismatch[] = [];
  for (const response of sent) {
    const path = document.pathOf(response.route);
    const found = document.check({ ...response, path });
    state.coverage.validated++;
    const operation = `${response.method} ${path}`;
    const statuses = (state.coverage.operations[operation] ??= {});
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    mismatches.push(...found);
  }
  state.coverage.milliseconds += performance.now() - started;
  return mismatches;
}

/** What this test file's responses covered, for test/global-teardown.ts to add up. */
export function recordedCoverage(testPath: string, mismatches: ContractMismatch[]): FileCoverage | undefined {
  const { validated, unmatched, outside, probes, milliseconds, operations } = state.coverage;
  if (validated + unmatched + outside + probes === 0) return undefined;
  return { testPath, validated, unmatched, outside, probes, milliseconds, operations, mismatches };
}
