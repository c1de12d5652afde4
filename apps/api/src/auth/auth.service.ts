import { Inject, Injectable } from '@nestjs/common';
import { TokensService, UsersService } from '@docconv/accounts';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import { SlidingWindowLimiter } from '../rate-limit/sliding-window.limiter';
import type { SignupResponse, TokenResponse } from './dto/credentials.dto';
import { LoginThrottle } from './login-throttle';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly tokens: TokensService,
    private readonly limiter: SlidingWindowLimiter,
    private readonly throttle: LoginThrottle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Sign-ups are limited per client address, whether they succeed or find the email taken, so
   * that neither creating accounts nor probing which emails have one is cheap.
   */
  async signup(email: string, password: string, clientAddress: string): Promise<SignupResponse> {
    const { maxPerAddress, windowSeconds } = this.config.signup;
    const decision = await this.limiter.hit(`signup:address:${clientAddress}`, maxPerAddress, windowSeconds);
    if (decision && !decision.allowed) {
      throw new DomainError(
        'rate_limited',
        `Too many sign-ups from this address. Try again in ${decision.resetSeconds} s, or log in to an existing account.`,
        { retryAfterSeconds: decision.resetSeconds },
      );
    }
    const user = await this.users.create(email, password);
    return { user_id: user.id, email: user.email, ...this.tokens.issue(user.id) };
  }

  /** A wrong password and an unknown email get the same answer after the same work. */
  async login(email: string, password: string, clientAddress: string): Promise<TokenResponse> {
    const wait = await this.throttle.waitSeconds(email, clientAddress);
    if (wait > 0) {
      throw new DomainError(
        'rate_limited',
        `Too many failed logins from this address. Try again in ${wait} s; a correct password works after the wait.`,
        { retryAfterSeconds: wait },
      );
    }
    const user = await this.users.verify(email, password);
    if (!user) {
      await this.throttle.failed(email, clientAddress);
      throw new DomainError('invalid_credentials', 'The email or password is wrong.');
    }
    await this.throttle.succeeded(email, clientAddress);
    return this.tokens.issue(user.id);
  }

  /** A new token for the user a still-valid session token names (the guard has checked it). */
  refresh(userId: string): TokenResponse {
    return this.tokens.issue(userId);
  }
}
