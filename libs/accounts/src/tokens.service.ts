import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { isUUID } from 'class-validator';
import * as jwt from 'jsonwebtoken';
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** What a valid access token says: whose it is and which session it belongs to. */
export interface AccessClaims {
  userId: string;
  sessionId: string;
}

/** What a well-signed refresh token names: a session and the refresh generation it was issued for. */
export interface RefreshClaims {
  sessionId: string;
  generation: number;
}

/** How far the clocks of two API processes may disagree when one signs and another verifies. */
export const CLOCK_SKEW_SECONDS = 30;

const REFRESH_TOKEN = /^dcr_([0-9a-f-]{36})\.(\d{1,9})\.([0-9a-f]{64})$/;

/**
 * The signed parts of a session (HS256 with `JWT_SECRET`): short-lived access tokens (JWT)
 * that name their user and session, and refresh tokens that name a session and a generation.
 * Pure signing and checking; whether a session still lives is `SessionsService`'s to say.
 */
@Injectable()
export class TokensService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  issueAccess(claims: AccessClaims): IssuedToken {
    const ttl = this.config.auth.jwtTtlSeconds;
    const token = jwt.sign({ sid: claims.sessionId }, this.config.auth.jwtSecret, {
      algorithm: 'HS256',
      subject: claims.userId,
      expiresIn: ttl,
      issuer: 'docconv',
    });
    return { access_token: token, token_type: 'Bearer', expires_in: ttl };
  }

  /**
   * The user and session an access token was issued to, or null when it is invalid, expired, or
   * not shaped as this service issues them: a user id, a session id, an issue time and an expiry
   * at most `JWT_TTL_SECONDS` after it and at most that far from now. A token signed with the
   * secret but with a longer life is refused: no token lives longer than the configured lifetime.
   */
  verifyAccess(token: string): AccessClaims | null {
    let payload: string | jwt.JwtPayload;
    try {
      payload = jwt.verify(token, this.config.auth.jwtSecret, { algorithms: ['HS256'], issuer: 'docconv' });
    } catch {
      return null;
    }
    if (typeof payload !== 'object') return null;
    const { exp, iat, sub, sid } = payload as { exp?: unknown; iat?: unknown; sub?: unknown; sid?: unknown };
    if (typeof exp !== 'number' || typeof iat !== 'number') return null;
    const maxTtl = this.config.auth.jwtTtlSeconds;
    const now = Date.now() / 1000;
    if (exp - iat > maxTtl || exp - now > maxTtl + CLOCK_SKEW_SECONDS) return null;
    if (typeof sub !== 'string' || !isUUID(sub) || typeof sid !== 'string' || !isUUID(sid)) return null;
    return { userId: sub, sessionId: sid };
  }

  /** `dcr_<session id>.<generation>.<hex HMAC-SHA256 of both>`: only this service can make one. */
  refreshToken(claims: RefreshClaims): string {
    return `dcr_${claims.sessionId}.${claims.generation}.${this.refreshMac(claims)}`;
  }

  /** What a refresh token made by this service names; null for anything else (compared in constant time). */
  readRefreshToken(token: string): RefreshClaims | null {
    const match = REFRESH_TOKEN.exec(token);
    if (!match || !isUUID(match[1])) return null;
    const claims = { sessionId: match[1], generation: Number(match[2]) };
    const expected = Buffer.from(this.refreshMac(claims), 'hex');
    return timingSafeEqual(Buffer.from(match[3], 'hex'), expected) ? claims : null;
  }

  private refreshMac({ sessionId, generation }: RefreshClaims): string {
    return createHmac('sha256', this.config.auth.jwtSecret)
      .update(`docconv refresh\n${sessionId}\n${generation}`, 'utf8')
      .digest('hex');
  }
}
