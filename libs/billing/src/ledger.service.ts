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

  private async postWithin(m: EntityManager, entry: LedgerEntry): Promise<PostedTransaction> {
    await m.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [entry.idempotencyKey]);
    const previous = await m.findOne(CreditTransactionEntity, { where: { idempotencyKey: entry.idempotencyKey } });
    if (previous) return { transaction: previous, replayed: true };

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
