import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainError } from '@docconv/contracts';
import { CreditTransactionEntity, PaymentEntity, UserEntity } from '@docconv/db';
import { isISO8601, isUUID } from 'class-validator';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** Authenticated requests of one user on one UTC day (`YYYY-MM-DD`), as the API counted them. */
export interface RequestCount {
  userId: string;
  day: string;
  requests: number;
}

export interface DailyUsage {
  day: string;
  requests: number;
  pointsSpent: number;
}

/** The account at a glance: the user, today's usage (UTC) and, for a key, what it spent today. */
export interface AccountSummary {
  userId: string;
  email: string;
  pointsBalance: number;
  today: { requests: number; pointsSpent: number };
  /** Points spent through the key since 00:00 UTC; null when no key was given. */
  keySpentToday: number | null;
}

/**
 * The name `ACCOUNT_SUMMARY_SQL` is prepared under on each pooled connection. $1 the user, $2 an
 * API key or null. Spends are the ledger's `spend` rows since 00:00 UTC, as `usage` and the
 * ledger's daily quota count them.
 */
export const ACCOUNT_SUMMARY_STATEMENT = 'docconv_account_summary';
export const ACCOUNT_SUMMARY_SQL = `
WITH today AS (SELECT (now() AT TIME ZONE 'UTC')::date AS day,
                      date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS since)
SELECT u.id, u.email, u.points_balance AS "pointsBalance",
  coalesce((SELECT d.requests FROM daily_usage d WHERE d.user_id = u.id AND d.day = t.day), 0) AS requests,
  (SELECT coalesce(-sum(c.amount), 0) FROM credit_transactions c
    WHERE c.user_id = u.id AND c.type = 'spend' AND c.created_at >= t.since) AS "pointsSpent",
  CASE WHEN $2::uuid IS NOT NULL THEN
    (SELECT coalesce(-sum(c.amount), 0) FROM credit_transactions c
      WHERE c.api_key_id = $2::uuid AND c.type = 'spend' AND c.created_at >= t.since) END AS "keySpent"
FROM users u CROSS JOIN today t WHERE u.id = $1`;

/** What a user can read about their money and activity. */
@Injectable()
export class AccountService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async user(userId: string): Promise<UserEntity> {
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id: userId });
    if (!user) throw new DomainError('user_not_found', 'This account no longer exists.');
    return user;
  }

  /**
   * The user, today's usage and the key's spend today in one prepared statement (one round trip,
   * parsed and planned once per connection), read through the data source's own pg pool.
   */
  async summary(userId: string, apiKeyId: string | null): Promise<AccountSummary> {
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    const { rows } = await pool.query<{
      id: string;
      email: string;
      pointsBalance: string;
      requests: string;
      pointsSpent: string;
      keySpent: string | null;
    }>({ name: ACCOUNT_SUMMARY_STATEMENT, text: ACCOUNT_SUMMARY_SQL, values: [userId, apiKeyId] });
    if (rows.length === 0) throw new DomainError('user_not_found', 'This account no longer exists.');
    const [row] = rows;
    return {
      userId: row.id,
      email: row.email,
      pointsBalance: Number(row.pointsBalance),
      today: { requests: Number(row.requests), pointsSpent: Number(row.pointsSpent) },
      keySpentToday: row.keySpent === null ? null : Number(row.keySpent),
    };
  }

  /** Newest first. */
  transactions(userId: string, limit: number): Promise<CreditTransactionEntity[]> {
    return this.dataSource.getRepository(CreditTransactionEntity).find({
      where: { userId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  /** Newest first. */
  payments(userId: string, limit: number): Promise<PaymentEntity[]> {
    return this.dataSource
      .getRepository(PaymentEntity)
      .find({ where: { userId }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
  }

  /** One row per UTC day for the last `days` days including today, oldest first, zeros for idle days. */
  async usage(userId: string, days: number): Promise<DailyUsage[]> {
    const rows = await this.dataSource.query<{ day: string; requests: string; points_spent: string }[]>(
      `WITH days AS (
         SELECT generate_series(today - ($2::int - 1), today, interval '1 day')::date AS day
           FROM (SELECT (now() AT TIME ZONE 'UTC')::date AS today) t),
       spends AS (
         SELECT (created_at AT TIME ZONE 'UTC')::date AS day, -sum(amount) AS spent
           FROM credit_transactions
          WHERE user_id = $1 AND type = 'spend'
            AND created_at >= ((now() AT TIME ZONE 'UTC')::date - ($2::int - 1)) AT TIME ZONE 'UTC'
          GROUP BY 1)
       SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
              coalesce(u.requests, 0) AS requests,
              coalesce(s.spent, 0) AS points_spent
         FROM days d
         LEFT JOIN daily_usage u ON u.user_id = $1 AND u.day = d.day
         LEFT JOIN spends s ON s.day = d.day
        ORDER BY d.day`,
      [userId, days],
    );
    return rows.map((r) => ({ day: r.day, requests: Number(r.requests), pointsSpent: Number(r.points_spent) }));
  }

  /** Adds request counts per (user, UTC day); called by the API's periodic flush. */
  /**
   * Adds request counts to the users' daily usage in one statement. Counts that cannot be saved
   * (a malformed user id, day or number, or a user that no longer exists) are left out, so one
   * bad count never holds back the rest; they are returned for the caller to report.
   */
  async addRequests(counts: RequestCount[]): Promise<RequestCount[]> {
    const valid = counts.filter(
      (c) =>
        isUUID(c.userId) && isISO8601(c.day, { strict: true }) && Number.isSafeInteger(c.requests) && c.requests > 0,
    );
    if (valid.length === 0) return counts;
    const saved: { user_id: string; day: string }[] = await this.dataSource.query(
      `INSERT INTO daily_usage (user_id, day, requests)
       SELECT c.user_id, c.day, c.requests
       FROM unnest($1::uuid[], $2::date[], $3::bigint[]) AS c(user_id, day, requests)
       JOIN users ON users.id = c.user_id
       ON CONFLICT (user_id, day) DO UPDATE SET requests = daily_usage.requests + EXCLUDED.requests
       RETURNING user_id, to_char(day, 'YYYY-MM-DD') AS day`,
      [valid.map((c) => c.userId), valid.map((c) => c.day), valid.map((c) => c.requests)],
    );
    const done = new Set(saved.map((row) => `${row.user_id}|${row.day}`));
    return counts.filter((c) => !done.has(`${c.userId.toLowerCase()}|${c.day}`));
  }
}
