import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/principal';
import { IdempotencyService } from './idempotency.service';

/** Who a key belongs to: the API key when the request came with one, else the user. */
export function idempotencyOwner(request: AuthenticatedRequest): string {
  const principal = request.principal;
  return principal?.apiKey ? `key:${principal.apiKey.id}` : `user:${principal?.userId ?? 'anonymous'}`;
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
