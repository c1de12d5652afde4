import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { isUUID } from 'class-validator';
import * as jwt from 'jsonwebtoken';

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** Session tokens (JWT, HS256) for people; API keys are for programs. */
@Injectable()
export class TokensService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  issue(userId: string): IssuedToken {
    const ttl = this.config.auth.jwtTtlSeconds;
    const token = jwt.sign({}, this.config.auth.jwtSecret, {
      algorithm: 'HS256',
      subject: userId,
      expiresIn: ttl,
      issuer: 'docconv',
    });
    return { access_token: token, token_type: 'Bearer', expires_in: ttl };
  }

  /**
   * The user id the token was issued to, or null when it is invalid, expired, has no expiry, or
   * names its user by anything but a user id: every token this service issues has both.
   */
  verify(token: string): string | null {
    try {
      const payload = jwt.verify(token, this.config.auth.jwtSecret, { algorithms: ['HS256'], issuer: 'docconv' });
      if (typeof payload !== 'object' || typeof payload.exp !== 'number') return null;
      return typeof payload.sub === 'string' && isUUID(payload.sub) ? payload.sub : null;
    } catch {
      return null;
    }
  }
}
