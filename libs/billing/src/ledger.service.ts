import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainError } from '@docconv/contracts';
import { CreditTransactionEntity, type CreditTransactionType } from '@docconv/db';
import { DataSource, type EntityManager } from 'typeorm';

export interface LedgerEntry {
  userId: string;
  type: CreditTransactionType;
  /** Points, always positive here; the sign is derived from `type` (a spend is negative). */
  points: number;
  description: string;
  /** A repeated post with the same key is a no-op that returns the first outcome. */
  idempotencyKey: string;
  jobId?: string | null;
  apiKeyId?: string | null;
}

export interface PostedTransaction {
  transaction: CreditTransactionEntity;
  /** True when the key had been posted before and nothing changed now. */
  replayed: boolean;
}

/**
 * The only code that changes a balance. Each post is one database transaction (or part of
 * the caller's): a lock on the idempotency key, a replay check, a conditional balance update
 * that cannot go below zero, and the ledger row with the balance after it.
 */
@Injectable()
export class LedgerService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async post(entry: LedgerEntry, manager?: EntityManager): Promise<PostedTransaction> {
    if (!Number.isSafeInteger(entry.points) || entry.points <= 0) {
      throw new Error(`Ledger posts need a positive integer amount, got ${entry.points}`);
    }
    if (manager) return this.postWithin(manager, entry);
    return this.dataSource.transaction((m) => this.postWithin(m, entry));
  }

  async balanceOf(userId: string): Promise<number> {
    const rows: { points_balance: string }[] = await this.dataSource.query(
      'SELECT points_balance FROM users WHERE id = $1',
      [userId],
    );
    if (rows.length === 0) throw new DomainError('user_not_found', 'No such user.');
    return Number(rows[0].points_balance);
  }

  /** Points the key spent (confirms and conversions) since the start of the UTC day; refunds do not give quota back. */
  async spentToday(apiKeyId: string, manager: EntityManager = this.dataSource.manager): Promise<number> {
    const [row] = await manager.query<{ spent: string }[]>(
      `SELECT coalesce(-sum(amount), 0) AS spent FROM credit_transactions
        WHERE api_key_id = $1 AND type = 'spend'
          AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
      [apiKeyId],
    );
    return Number(row.spent);
  }

  /**
   * Refuses a spend that would take the key past its daily quota. The key's row is locked
   * first, so concurrent spends through one key are counted one after another.
   */
  private async assertWithinDailyQuota(m: EntityManager, apiKeyId: string, points: number): Promise<void> {
    const [key] = await m.query<{ daily_quota: string | null }[]>(
      'SELECT daily_quota FROM api_keys WHERE id = $1 FOR UPDATE',
      [apiKeyId],
    );
    if (!key || key.daily_quota === null) return;
    const quota = Number(key.daily_quota);
    const spent = await this.spentToday(apiKeyId, m);
    if (spent + points > quota) {
      const secondsToMidnight = Math.ceil((nextUtcMidnight().getTime() - Date.now()) / 1000);
      throw new DomainError(
        'daily_quota_exceeded',
        `This needs ${points} points but the key's daily quota of ${quota} has ${Math.max(0, quota - spent)} left today. ` +
          'It resets at 00:00 UTC; raise daily_quota with PATCH /api/v1/keys/{key_id} to spend more today.',
        {
          retryAfterSeconds: secondsToMidnight,
          extensions: { daily_quota: quota, daily_spent_points: spent, needed: points },
        },
      );
    }
  }

  private async postWithin(m: EntityManager, entry: LedgerEntry): Promise<PostedTransaction> {
    await m.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [entry.idempotencyKey]);
    const previous = await m.findOne(CreditTransactionEntity, { where: { idempotencyKey: entry.idempotencyKey } });
    if (previous) return { transaction: previous, replayed: true };

    // A post naming a key locks the key before the balance (a spend for its quota, anything else as
    // the row its ledger row will reference), so concurrent spends and refunds through one key take
    // their locks in one order and cannot deadlock.
    if (entry.apiKeyId && entry.type === 'spend') await this.assertWithinDailyQuota(m, entry.apiKeyId, entry.points);
    else if (entry.apiKeyId) await m.query('SELECT 1 FROM api_keys WHERE id = $1 FOR KEY SHARE', [entry.apiKeyId]);

    const amount = entry.type === 'spend' ? -entry.points : entry.points;
    const updated: { points_balance: string }[] = await m.query(
      `WITH updated AS (
         UPDATE users SET points_balance = points_balance + $2
          WHERE id = $1 AND points_balance + $2 >= 0
          RETURNING points_balance)
       SELECT points_balance FROM updated`,
      [entry.userId, amount],
    );
    if (updated.length === 0) {
      const balance: { points_balance: string }[] = await m.query('SELECT points_balance FROM users WHERE id = $1', [
        entry.userId,
      ]);
      if (balance.length === 0) throw new DomainError('user_not_found', 'No such user.');
      const have = Number(balance[0].points_balance);
      throw new DomainError(
        'insufficient_credits',
        `This needs ${entry.points} points but the balance is ${have}. Add credits and try again.`,
        { extensions: { needed: entry.points, balance: have } },
      );
    }

    const row = m.create(CreditTransactionEntity, {
      userId: entry.userId,
      apiKeyId: entry.apiKeyId ?? null,
      jobId: entry.jobId ?? null,
      type: entry.type,
      amount,
      balanceAfter: Number(updated[0].points_balance),
      description: entry.description,
      idempotencyKey: entry.idempotencyKey,
    });
    return { transaction: await m.save(row), replayed: false };
  }
}

export function nextUtcMidnight(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}
