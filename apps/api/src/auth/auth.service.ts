import { Inject, Injectable } from '@nestjs/common';
import { SessionsService, UsersService, type SessionClient } from '@docconv/accounts';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import { SlidingWindowLimiter } from '../rate-limit/sliding-window.limiter';
import type { SignupResponse, TokenResponse } from './dto/credentials.dto';
import { toSessionResponse, type SessionResponse } from './dto/session.dto';
import { LoginThrottle } from './login-throttle';
import type { Principal } from './principal';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly limiter: SlidingWindowLimiter,
    private readonly throttle: LoginThrottle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Sign-ups are limited per client address, whether they succeed or find the email taken, so
   * that neither creating accounts nor probing which emails have one is cheap.
   */
  async signup(email: string, password: string, client: SessionClient): Promise<SignupResponse> {
    const { maxPerAddress, windowSeconds } = this.config.signup;
    const decision = await this.limiter.hit(`signup:address:${client.ipAddress}`, maxPerAddress, windowSeconds);
    if (decision && !decision.allowed) {
      throw new DomainError(
        'rate_limited',
        `Too many sign-ups from this address. Try again in ${decision.resetSeconds} s, or log in to an existing account.`,
        { retryAfterSeconds: decision.resetSeconds },
      );
    }
    const user = await this.users.create(email, password);
    return { user_id: user.id, email: user.email, ...(await this.sessions.open(user.id, client)) };
  }

  /** A wrong password and an unknown email get the same answer after the same work. */
  async login(email: string, password: string, client: SessionClient): Promise<TokenResponse> {
    await this.waitForThrottle(email, client.ipAddress);
    const user = await this.users.verify(email, password);
    if (!user) {
      await this.throttle.failed(email, client.ipAddress);
      throw new DomainError('invalid_credentials', 'The email or password is wrong.');
    }
    await this.throttle.succeeded(email, client.ipAddress);
    return this.sessions.open(user.id, client);
  }

  refresh(refreshToken: string): Promise<TokenResponse> {
    return this.sessions.refresh(refreshToken);
  }

  logout(caller: Principal): Promise<void> {
    return this.sessions.end(caller.userId, sessionOf(caller), 'logout');
  }

  /**
   * Changes the caller's password and ends their other sessions. Wrong current passwords are
   * throttled as failed logins are (keyed by the account), so a stolen session cannot guess it.
   */
  async changePassword(caller: Principal, current: string, next: string, clientAddress: string): Promise<void> {
    const account = `user:${caller.userId}`;
    await this.waitForThrottle(account, clientAddress);
    if (!(await this.sessions.changePassword(caller.userId, sessionOf(caller), current, next))) {
      await this.throttle.failed(account, clientAddress);
      throw new DomainError('validation_failed', 'The current password is wrong; the password was not changed.', {
        errors: [{ field: 'current_password', message: 'is not your current password' }],
      });
    }
    await this.throttle.succeeded(account, clientAddress);
  }

  async listSessions(caller: Principal): Promise<SessionResponse[]> {
    return (await this.sessions.list(caller.userId)).map((s) => toSessionResponse(s, caller.sessionId));
  }

  endSession(caller: Principal, sessionId: string): Promise<void> {
    return this.sessions.end(caller.userId, sessionId, 'revoked');
  }

  private async waitForThrottle(account: string, clientAddress: string): Promise<void> {
    const wait = await this.throttle.waitSeconds(account, clientAddress);
    if (wait > 0) {
      throw new DomainError(
        'rate_limited',
        `Too many wrong passwords from this address. Try again in ${wait} s; a correct password works after the wait.`,
        { retryAfterSeconds: wait },
      );
    }
  }
}

/** The session of a caller on a session-only route. */
function sessionOf(caller: Principal): string {
  if (caller.sessionId === null) throw new Error('A session-only route was reached without a session');
  return caller.sessionId;
}
