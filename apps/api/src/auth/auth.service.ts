import { Inject, Injectable } from '@nestjs/common';
import { normaliseEmail, TokensService, UsersService } from '@docconv/accounts';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import { SlidingWindowLimiter } from '../rate-limit/sliding-window.limiter';
import type { SignupResponse, TokenResponse } from './dto/credentials.dto';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly tokens: TokensService,
    private readonly limiter: SlidingWindowLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async signup(email: string, password: string): Promise<SignupResponse> {
    const user = await this.users.create(email, password);
    return { user_id: user.id, email: user.email, ...this.tokens.issue(user.id) };
  }

  /** A wrong password and an unknown email get the same answer after the same work. */
  async login(email: string, password: string, clientAddress: string): Promise<TokenResponse> {
    const { maxAttemptsPerEmail, maxAttemptsPerAddress, windowSeconds } = this.config.login;
    for (const [subject, limit] of [
      [`login:email:${normaliseEmail(email)}`, maxAttemptsPerEmail],
      [`login:address:${clientAddress}`, maxAttemptsPerAddress],
    ] as const) {
      const decision = await this.limiter.hit(subject, limit, windowSeconds);
      if (decision && !decision.allowed) {
        throw new DomainError('rate_limited', `Too many login attempts. Try again in ${decision.resetSeconds} s.`, {
          retryAfterSeconds: decision.resetSeconds,
        });
      }
    }
    const user = await this.users.verify(email, password);
    if (!user) throw new DomainError('invalid_credentials', 'The email or password is wrong.');
    return this.tokens.issue(user.id);
  }
}
