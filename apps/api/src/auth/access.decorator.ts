import { applyDecorators, SetMetadata } from '@nestjs/common';
import type { Scope } from '@docconv/contracts';
import { ApiBearerAuth, ApiForbiddenResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';

/** Which credential a route takes. */
export type Credential = 'none' | 'jwt' | 'api_key' | 'api_key_or_jwt';

export interface AccessRule {
  credential: Credential;
  /** Required of API keys; a JWT acts for its user with every scope. */
  scope?: Scope;
  /** Sessions only: the session must have logged in within the last `RECENT_LOGIN_SECONDS`. */
  recentLogin?: boolean;
}

export const ACCESS_RULE = 'docconv:access-rule';
export const API_KEY_SCHEME = 'api_key';
export const JWT_SCHEME = 'jwt';

/**
 * Declares, once per route, the credential it takes and the scope it needs, and documents
 * both in OpenAPI. The access guard refuses any route that has no declaration.
 */
export function Access(rule: AccessRule): MethodDecorator & ClassDecorator {
  const docs: (MethodDecorator & ClassDecorator)[] = [];
  if (rule.credential === 'jwt' || rule.credential === 'api_key_or_jwt') docs.push(ApiBearerAuth(JWT_SCHEME));
  if (rule.credential === 'api_key' || rule.credential === 'api_key_or_jwt') docs.push(ApiSecurity(API_KEY_SCHEME));
  if (rule.credential !== 'none') {
    docs.push(ApiUnauthorizedResponse({ description: 'Missing, malformed, unknown or deactivated credential.' }));
  }
  if (rule.scope) docs.push(ApiForbiddenResponse({ description: `The API key lacks the \`${rule.scope}\` scope.` }));
  if (rule.recentLogin) {
    docs.push(
      ApiForbiddenResponse({
        description: 'The session logged in too long ago (`recent_login_required`): log in again, then retry.',
      }),
    );
  }
  return applyDecorators(SetMetadata(ACCESS_RULE, rule), ...docs);
}

/** No credential: health, pricing, capabilities, signup and login. */
export const Public = (): MethodDecorator & ClassDecorator => Access({ credential: 'none' });
