import { logContext } from '@docconv/logging';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

/** A step on Node's request and response that goes on with `next`. */
type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const requestFields = (req: { method?: string; url?: string }) => ({ method: req.method, url: req.url?.split('?')[0] });
const responseFields = (res: { statusCode: number }) => ({ status: res.statusCode });

/**
 * One JSON log line per request, tagged with a request id that is echoed in `X-Request-Id`.
 * A client may send its own id (letters, digits and `._:-`, up to 128 characters). Successful
 * requests are logged at `info`; with the level above it, only failed ones (5xx) are, and the
 * per-request logger pino-http sets up is skipped.
 */
export function requestLogging(logger: Logger): Handler {
  const log = logger.isLevelEnabled('info') ? everyRequestLogging(logger) : failedRequestLogging(logger);
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && CLIENT_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    (req as IncomingMessage & { id: string }).id = requestId;
    logContext.run({ requestId }, log, req, res, next);
  };
}

/** pino-http's line for every request, at `info` (`error` for a 5xx). */
function everyRequestLogging(logger: Logger): Handler {
  return pinoHttp({
    logger,
    genReqId: (req) => (req as IncomingMessage & { id: string }).id,
    customAttributeKeys: { reqId: 'req_id' },
    serializers: { req: requestFields, res: responseFields },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
  });
}

/** The line pino-http writes for a response that failed (5xx), and nothing for any other. */
function failedRequestLogging(logger: Logger): Handler {
  return (req, res, next) => {
    const started = Date.now();
    res.once('close', () => {
      if (res.statusCode < 500) return;
      logger.error(
        {
          req_id: (req as IncomingMessage & { id: string }).id,
          req: requestFields(req),
          res: responseFields(res),
          err: new Error(`failed with status code ${res.statusCode}`),
          responseTime: Date.now() - started,
        },
        'request errored',
      );
    });
    next();
  };
}
