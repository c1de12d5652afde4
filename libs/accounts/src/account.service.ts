import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainError } from '@docconv/contracts';
import { CreditTransactionEntity, PaymentEntity, UserEntity } from '@docconv/db';
import { isISO8601, isUUID } from 'class-validator';
import { DataSource } from 'typeorm';

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

/** What a user can read about their money and activity. */
@Injectable()
export class AccountService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async user(userId: string): Promise<UserEntity> {
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id: userId });
    if (!user) throw new DomainError('user_not_found', 'This account no longer exists.');
    return user;
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
