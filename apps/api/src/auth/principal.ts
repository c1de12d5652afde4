import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { ApiKeyEntity } from '@docconv/db';
import type { FastifyRequest } from 'fastify';

/** Who is calling: the user, and the API key or the session the request came with. */
export interface Principal {
  userId: string;
  apiKey: ApiKeyEntity | null;
  /** The session of the access token; null for an API key. */
  sessionId: string | null;
}

export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

/** The caller established by the access guard. */
export const Caller = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('Caller used on a route without a credential');
  return principal;
});
