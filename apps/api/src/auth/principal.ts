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

/** The user and the key a move of theirs is made for, as the libraries name them (`Caller` of `@docconv/jobs`). */
export const callerOf = (p: Principal) => ({ userId: p.userId, apiKeyId: p.apiKey?.id ?? null });

export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

/** The caller established by the access guard. */
export const Caller = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('Caller used on a route without a credential');
  return principal;
});
