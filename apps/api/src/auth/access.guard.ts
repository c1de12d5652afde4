import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeysService, KEY_PATTERN, RECENT_LOGIN_SECONDS, SessionsService } from '@docconv/accounts';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import type { FastifyReply } from 'fastify';
import { SlidingWindowLimiter } from '../rate-limit/sliding-window.limiter';
import { RequestCounter } from '../usage/request-counter.service';
import { ACCESS_RULE, type AccessRule } from './access.decorator';
import type { AuthenticatedRequest, Principal } from './principal';

const USE_API_KEY =
  'This endpoint takes an API key in the X-API-Key header, not a session token. Create one with POST /api/v1/keys.';
const USE_SESSION =
  'This endpoint takes a session token (Authorization: Bearer <JWT>) from POST /api/v1/auth/login, not an API key.';

/**
 * Enforces each route's declared access rule: the credential, the scope, the rate limit (each
 * key's own; one shared by all of a user's session tokens), and request accounting. A route
 * without a declaration is never served.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  /** Each route's rule by controller and handler, read from their metadata once (decorators do not change). */
  private readonly rules = new Map<object, Map<object, AccessRule | null>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeysService,
    private readonly sessions: SessionsService,
    private readonly limiter: SlidingWindowLimiter,
    private readonly counter: RequestCounter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.ruleOf(context);
    if (!rule) throw new Error(`Route ${context.getClass().name}.${context.getHandler().name} declares no access rule`);
    if (rule.credential === 'none') return true;

    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const response = http.getResponse<FastifyReply>();
    // Node keeps one value of each (a repeated X-API-Key is joined with ", " and fails the pattern).
    const apiKey = request.headers['x-api-key'] as string | undefined;
    const authorization = request.headers.authorization;

    let principal: Principal;
    switch (rule.credential) {
      case 'api_key':
        if (apiKey === undefined)
          throw unauthorized(authorization ? USE_API_KEY : 'Send your API key in the X-API-Key header.');
        principal = await this.fromApiKey(apiKey);
        break;
      case 'jwt':
        if (authorization === undefined) throw unauthorized(apiKey ? USE_SESSION : 'Send Authorization: Bearer <JWT>.');
        principal = await this.fromSession(authorization, rule);
        break;
      case 'api_key_or_jwt':
        if (apiKey !== undefined) principal = await this.fromApiKey(apiKey);
        else if (authorization !== undefined) principal = await this.fromSession(authorization, rule);
        else throw unauthorized('Send an API key in X-API-Key, or a session token as Authorization: Bearer <JWT>.');
        break;
    }

    if (rule.scope && principal.apiKey && !principal.apiKey.scopes.includes(rule.scope)) {
      throw new DomainError(
        'forbidden',
        `This API key lacks the ${rule.scope} scope. Add it with PATCH /api/v1/keys/{key_id}.`,
      );
    }
    await this.applyRateLimit(principal, response);
    request.principal = principal;
    this.counter.count(principal.userId);
    return true;
  }

  private ruleOf(context: ExecutionContext): AccessRule | null {
    const controller = context.getClass();
    const handler = context.getHandler();
    let rules = this.rules.get(controller);
    if (rules === undefined) this.rules.set(controller, (rules = new Map<object, AccessRule | null>()));
    let rule = rules.get(handler);
    if (rule === undefined) {
      rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [handler, controller]) ?? null;
      rules.set(handler, rule);
    }
    return rule;
  }

  private async fromApiKey(secret: string): Promise<Principal> {
    if (!KEY_PATTERN.test(secret)) throw unauthorized('The X-API-Key header does not hold a docconv API key (dcv_…).');
    const key = await this.keys.findActiveBySecret(secret);
    if (!key) throw unauthorized('This API key is unknown or has been deactivated. Use a current key.');
    return { userId: key.userId, apiKey: key, sessionId: null };
  }

  /** A live session's access token; a rule asking for a recent log-in is checked against the session's. */
  private async fromSession(authorization: string, rule: AccessRule): Promise<Principal> {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) throw unauthorized('The Authorization header must be "Bearer <JWT>".');
    const session = await this.sessions.authenticate(match[1]);
    if (!session) {
      throw unauthorized(
        'The session token is invalid or has expired, or its session has ended. Renew it with POST /api/v1/auth/refresh, or log in again.',
      );
    }
    if (rule.recentLogin && Date.now() - session.loggedInAt.getTime() > RECENT_LOGIN_SECONDS * 1000) {
      throw new DomainError(
        'recent_login_required',
        `Managing API keys takes a log-in from the last ${RECENT_LOGIN_SECONDS / 60} minutes. Log in again, then retry.`,
      );
    }
    return { userId: session.userId, apiKey: null, sessionId: session.sessionId };
  }

  /** A key's requests count against its own limit; a session's against its user's, whatever the token. */
  private async applyRateLimit(principal: Principal, reply: FastifyReply): Promise<void> {
    const { apiKey } = principal;
    const rpm = apiKey ? apiKey.rateLimitRpm : this.config.auth.sessionRateLimitRpm;
    const decision = await this.limiter.hit(apiKey ? `key:${apiKey.id}` : `user:${principal.userId}`, rpm, 60);
    if (!decision) return;
    reply.header('RateLimit-Limit', String(decision.limit));
    reply.header('RateLimit-Remaining', String(decision.remaining));
    reply.header('RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw new DomainError(
        'rate_limited',
        apiKey
          ? `This key allows ${rpm} requests per minute. Wait ${decision.resetSeconds} s, or raise rate_limit_rpm with PATCH /api/v1/keys/{key_id}.`
          : `Your session allows ${rpm} requests per minute. Wait ${decision.resetSeconds} s; for more, use an API key with its own rate_limit_rpm.`,
        { retryAfterSeconds: decision.resetSeconds },
      );
    }
  }
}

function unauthorized(detail: string): DomainError {
  return new DomainError('unauthorized', detail);
}
