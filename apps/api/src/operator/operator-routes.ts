import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter as BullBoardAdapter } from '@bull-board/fastify';
import type { AppConfig } from '@docconv/config';
import { MetricsRegistry } from '@docconv/metrics';
import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { PROBLEM_CONTENT_TYPE, problemType, type Problem } from '../errors/problem';
import { titleOf } from '../errors/status-of';
import { OperatorMetrics } from './operator-metrics.service';

/** Where the queue view is served. */
export const QUEUE_VIEW_PATH = '/admin/queues';

/** A request hook: it answers (and returns the reply, which ends the request there) or lets the request through. */
type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

/**
 * The operator's endpoints, outside the API's prefix: `GET /metrics` (Prometheus) and the queue
 * view (Bull Board, read-only: the job records in PostgreSQL own every job's state, so jobs are
 * retried, cancelled and refunded through the API, never from the queue view). Both answer only
 * to `ADMIN_TOKEN`, as a bearer token or as the password of HTTP basic authentication (a browser
 * asks for it); while it is unset they answer 404 saying how to turn them on.
 */
export async function mountOperator(server: FastifyInstance, app: INestApplication, config: AppConfig): Promise<void> {
  const registry = app.get(MetricsRegistry);
  const { queues } = app.get(OperatorMetrics);
  const token = config.operator.adminToken;
  await server.register(async (scope) => {
    scope.addHook('onRequest', token === null ? operatorOff : operatorCredential(token));
    scope.get('/metrics', async (request, reply) => {
      let text: string;
      try {
        text = await registry.exposition();
      } catch (error) {
        // PostgreSQL or Redis away: the scrape fails as a whole, and says why.
        const reason = error instanceof Error ? error.message : String(error);
        return problem(reply, request, 503, `The metrics could not be collected (${reason}). Scrape again later.`);
      }
      return reply.type(registry.contentType).send(text);
    });
    if (token === null) {
      // Never reached (the hook answers first); they give the queue view's addresses a route.
      scope.get(QUEUE_VIEW_PATH, async () => undefined);
      scope.get(`${QUEUE_VIEW_PATH}/*`, async () => undefined);
      return;
    }
    const board = new BullBoardAdapter();
    createBullBoard({
      queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: true })),
      serverAdapter: board,
      options: { uiConfig: { boardTitle: 'docconv queues' } },
    });
    board.setBasePath(QUEUE_VIEW_PATH);
    await scope.register(board.registerPlugin(), { prefix: QUEUE_VIEW_PATH });
  });
}

const CODES = { 401: 'unauthorized', 404: 'not_found', 503: 'service_unavailable' } as const;

function problem(reply: FastifyReply, request: FastifyRequest, status: 401 | 404 | 503, detail: string): FastifyReply {
  const body: Problem = {
    type: problemType(CODES[status]),
    title: titleOf(CODES[status]),
    status,
    detail,
    code: CODES[status],
    instance: request.url.split('?')[0],
  };
  return reply.code(status).header('Cache-Control', 'no-store').type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}

const operatorOff: Hook = async (request, reply) =>
  problem(reply, request, 404, 'The operator endpoints are off: set ADMIN_TOKEN on the API to turn them on.');

/** Lets a request through when it carries `token` as a bearer token or a basic-auth password. */
function operatorCredential(token: string): Hook {
  const expected = digest(token);
  return async (request, reply) => {
    const [scheme, value = ''] = (request.headers.authorization ?? '').split(' ', 2);
    const presented =
      scheme === 'Bearer'
        ? value
        : scheme === 'Basic'
          ? Buffer.from(value, 'base64').toString('utf8').split(':').slice(1).join(':')
          : undefined;
    if (presented !== undefined && timingSafeEqual(digest(presented), expected)) {
      void reply.header('Cache-Control', 'no-store');
      return undefined;
    }
    void reply.header('WWW-Authenticate', 'Basic realm="docconv operator", charset="UTF-8"');
    return problem(
      reply,
      request,
      401,
      'This operator endpoint needs the ADMIN_TOKEN: send "Authorization: Bearer <token>", or in a browser give any user name and the token as the password.',
    );
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
