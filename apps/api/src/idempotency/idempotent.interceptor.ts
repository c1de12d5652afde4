import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/principal';
import { IdempotencyService } from './idempotency.service';

/**
 * Whose request an `Idempotency-Key` names: the user's, whichever of their credentials (any API key,
 * a session) sends it, so a retry through another credential replays the first answer; two users
 * never share a key. Every idempotent route takes a credential, so a request here has a user.
 */
export function idempotencyOwner(request: AuthenticatedRequest): string {
  const userId = request.principal?.userId;
  if (userId === undefined) throw new Error('an idempotent route was reached without a credential');
  return `user:${userId}`;
}

/**
 * Makes a JSON route idempotent under the `Idempotency-Key` header: the request is identified
 * by its method, path and body; a replayed answer carries `Idempotency-Replayed: true`.
 */
@Injectable()
export class IdempotentInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const key = this.idempotency.keyOf(request.headers['idempotency-key']);
    if (key === undefined) return next.handle();
    const fingerprint = this.idempotency.fingerprint(request.method, request.url.split('?')[0], request.body ?? null);
    return from(
      this.idempotency
        .run(idempotencyOwner(request), key, fingerprint, reply.statusCode, () => lastValueFrom(next.handle()))
        .then(({ outcome, replayed }) => {
          if (replayed) {
            reply.header('Idempotency-Replayed', 'true');
            if (outcome.status > 0) reply.code(outcome.status);
          }
          return IdempotencyService.settle(outcome);
        }),
    );
  }
}
