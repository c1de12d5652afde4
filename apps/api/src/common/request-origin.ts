import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * The origin the caller reached the service at: a browser's `Origin` header when it sends one,
 * else the scheme and host of the request (`X-Forwarded-Proto` and `-Host` only from a trusted proxy).
 */
export const RequestOrigin = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const origin = request.headers.origin;
  if (typeof origin === 'string' && /^https?:\/\/[^/\s]+$/i.test(origin) && URL.canParse(origin)) return origin;
  return servedOrigin(request);
});

/**
 * The origin the request reached this API at (`X-Forwarded-Proto` and `-Host` only from a
 * trusted proxy): where a link the API hands out resolves, whatever page made the call.
 */
export const ServedOrigin = createParamDecorator((_: unknown, context: ExecutionContext): string =>
  servedOrigin(context.switchToHttp().getRequest<FastifyRequest>()),
);

/** The scheme and host a request reached this API at. */
export function servedOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
