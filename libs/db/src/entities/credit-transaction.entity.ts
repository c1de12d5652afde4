import { Column, Entity } from 'typeorm';
import { bigintNumber } from './column-types';
import { UserOwnedRow } from './user-owned-row';

export const CREDIT_TRANSACTION_TYPES = ['charge', 'spend', 'refund', 'grant'] as const;
export type CreditTransactionType = (typeof CREDIT_TRANSACTION_TYPES)[number];

/** One row of the append-only ledger. Rows are inserted, never updated or deleted. */
@Entity({ name: 'credit_transactions' })
export class CreditTransactionEntity extends UserOwnedRow {
  @Column({ name: 'api_key_id', type: 'uuid', nullable: true })
  apiKeyId!: string | null;

  @Column({ name: 'job_id', type: 'uuid', nullable: true })
  jobId!: string | null;

  @Column({ type: 'text' })
  type!: CreditTransactionType;

  /** Signed milli-USD: negative for a spend, positive for a charge, refund or grant. */
  @Column({ type: 'bigint', transformer: bigintNumber })
  amount!: number;

  @Column({ name: 'balance_after', type: 'bigint', transformer: bigintNumber })
  balanceAfter!: number;

  @Column({ type: 'text' })
  description!: string;

  /** Makes a repeated command a no-op, e.g. `job:<id>:confirm`. */
  @Column({ name: 'idempotency_key', type: 'text' })
  idempotencyKey!: string;
}
