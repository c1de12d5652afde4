import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '@docconv/contracts';
import { ACCESS_RULE, type AccessRule } from './access.decorator';

/** Enforces each route's declared access rule; a route without one is never served. */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!rule) throw new Error(`Route ${context.getClass().name}.${context.getHandler().name} declares no access rule`);
    if (rule.credential === 'none') return true;
    throw new DomainError('unauthorized', 'This endpoint needs a credential.');
  }
}
