import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import { SessionEntity, type SessionEndReason } from '@docconv/db';
import { DataSource } from 'typeorm';
import { TokensService, type IssuedToken } from './tokens.service';
import { UsersService } from './users.service';

/** Where a log-in comes from, as the sessions list shows it. */
export interface SessionClient {
  userAgent: string | undefined;
  ipAddress: string;
}

/** What log-in and refresh answer: an access token, and the refresh token that renews it once. */
export interface IssuedSession extends IssuedToken {
  refresh_token: string;
  /** Seconds until the session ends, renewed or not. */
  refresh_expires_in: number;
  session_id: string;
}

/** A live session's access token, checked against the session it names. */
export interface SessionPrincipal {
  userId: string;
  sessionId: string;
  loggedInAt: Date;
}

/** How recent a log-in must be to mint or change API keys. */
export const RECENT_LOGIN_SECONDS = 10 * 60;

/** `last_used_at` is written at most this often per session, so requests do not each write a row. */
const TOUCH_EVERY_SECONDS = 60;

const SESSION_ENDED = 'This session has ended (logged out, revoked, or expired). Log in again.';

/**
 * A person's sessions, one per log-in, kept in PostgreSQL: the one owner of whether a session
 * lives. Every access token names its session and is refused once the session has ended; a
 * refresh token renews its session once (rotation), and an older one coming back ends the session
 * and so every token of it (one may have been stolen).
 */
@Injectable()
export class SessionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tokens: TokensService,
    private readonly users: UsersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Starts a session for a user who has just proved who they are. */
  async open(userId: string, client: SessionClient): Promise<IssuedSession> {
    const rows: { id: string; expires_at: Date }[] = await this.dataSource.query(
      `INSERT INTO sessions (user_id, user_agent, ip_address, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING id, expires_at`,
      [userId, (client.userAgent ?? '').slice(0, 200), client.ipAddress.slice(0, 64), this.lifetime],
    );
    return this.issue(userId, rows[0].id, 0, rows[0].expires_at);
  }

  /**
   * Exchanges the session's current refresh token for a new pair; the one sent stops working. A
   * refresh token of an earlier generation ends the session: the old token was used twice, so
   * someone besides its owner may hold it.
   */
  async refresh(refreshToken: string): Promise<IssuedSession> {
    const claims = this.tokens.readRefreshToken(refreshToken);
    if (!claims)
      throw new DomainError('unauthorized', 'This refresh token is not one this service issued. Log in again.');
    const renewed: { user_id: string; refresh_generation: number; expires_at: Date }[] = await this.dataSource.query(
      `WITH renewed AS (
         UPDATE sessions SET refresh_generation = refresh_generation + 1, last_used_at = now()
         WHERE id = $1 AND refresh_generation = $2 AND revoked_at IS NULL AND expires_at > now()
         RETURNING user_id, refresh_generation, expires_at
       )
       SELECT * FROM renewed`,
      [claims.sessionId, claims.generation],
    );
    if (renewed.length === 1) {
      const { user_id, refresh_generation, expires_at } = renewed[0];
      return this.issue(user_id, claims.sessionId, refresh_generation, expires_at);
    }
    const reused: unknown[] = await this.dataSource.query(
      `WITH ended AS (
         UPDATE sessions SET revoked_at = now(), revoked_reason = 'refresh_reused'
         WHERE id = $1 AND refresh_generation > $2 AND revoked_at IS NULL RETURNING id
       )
       SELECT id FROM ended`,
      [claims.sessionId, claims.generation],
    );
    if (reused.length === 1) {
      throw new DomainError(
        'unauthorized',
        'This refresh token was already used, so the session has been ended: every token of it stops working. Log in again.',
      );
    }
    throw new DomainError('unauthorized', SESSION_ENDED);
  }

  /**
   * The caller behind an access token, when the token verifies and its session still lives; null
   * otherwise. One indexed read per request, so an ended session is refused at once by every API
   * process; `last_used_at` is moved along in the same statement at most once a minute.
   */
  async authenticate(accessToken: string): Promise<SessionPrincipal | null> {
    const claims = this.tokens.verifyAccess(accessToken);
    if (!claims) return null;
    const rows: { created_at: Date }[] = await this.dataSource.query(
      `WITH live AS (
         SELECT id, created_at, last_used_at FROM sessions
         WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now()
       ), touched AS (
         UPDATE sessions s SET last_used_at = now() FROM live
         WHERE s.id = live.id AND live.last_used_at < now() - make_interval(secs => $3)
       )
       SELECT created_at FROM live`,
      [claims.sessionId, claims.userId, TOUCH_EVERY_SECONDS],
    );
    return rows.length === 1 ? { ...claims, loggedInAt: rows[0].created_at } : null;
  }

  /** The user's live sessions, newest first. */
  list(userId: string): Promise<SessionEntity[]> {
    return this.dataSource
      .getRepository(SessionEntity)
      .createQueryBuilder('s')
      .where('s.user_id = :userId AND s.revoked_at IS NULL AND s.expires_at > now()', { userId })
      .orderBy('s.created_at', 'DESC')
      .getMany();
  }

  /** Ends one of the user's own sessions (already ended: nothing changes); another's is not found. */
  async end(userId: string, sessionId: string, reason: SessionEndReason): Promise<void> {
    const rows: { ended: boolean }[] = await this.dataSource.query(
      `WITH ended AS (
         UPDATE sessions SET revoked_at = now(), revoked_reason = $3
         WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id
       )
       SELECT true AS ended FROM ended
       UNION ALL SELECT false FROM sessions WHERE id = $1 AND user_id = $2`,
      [sessionId, userId, reason],
    );
    if (rows.length === 0) throw new DomainError('session_not_found', 'There is no session of yours with this id.');
  }

  /**
   * Changes the password when the current one is given right, and ends every other session of
   * the user in the same transaction; the session that changed it goes on. False when the current
   * password is wrong (nothing changes).
   */
  async changePassword(userId: string, keepSessionId: string, current: string, next: string): Promise<boolean> {
    if (!(await this.users.hasPassword(userId, current))) return false;
    await this.dataSource.transaction(async (m) => {
      await this.users.setPassword(m, userId, next, 'new_password');
      await m.query(
        `UPDATE sessions SET revoked_at = now(), revoked_reason = 'password_changed'
         WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL`,
        [userId, keepSessionId],
      );
    });
    return true;
  }

  private get lifetime(): number {
    return this.config.auth.sessionLifetimeSeconds;
  }

  private issue(userId: string, sessionId: string, generation: number, expiresAt: Date): IssuedSession {
    return {
      ...this.tokens.issueAccess({ userId, sessionId }),
      refresh_token: this.tokens.refreshToken({ sessionId, generation }),
      refresh_expires_in: Math.max(0, Math.round((expiresAt.getTime() - Date.now()) / 1000)),
      session_id: sessionId,
    };
  }
}
