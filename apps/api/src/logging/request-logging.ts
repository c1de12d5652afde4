import { logContext } from '@docconv/logging';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * One JSON log line per request, tagged with a request id that is echoed in `X-Request-Id`.
 * A client may send its own id (letters, digits and `._:-`, up to 128 characters).
 */
export function requestLogging(logger: Logger): RequestHandler[] {
  const assignId: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.header('x-request-id');
    const requestId = incoming && CLIENT_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    (req as Request & { id: string }).id = requestId;
    logContext.run({ requestId }, next);
  };
  const http = pinoHttp({
    logger,
    genReqId: (req) => (req as unknown as { id: string }).id,
    customAttributeKeys: { reqId: 'req_id' },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
  });
  return [assignId, http];
}
