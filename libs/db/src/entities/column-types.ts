import { Column, CreateDateColumn, PrimaryGeneratedColumn, type ValueTransformer } from 'typeorm';

/**
 * PostgreSQL `bigint` arrives as a string; our integers (points, counts) stay far below
 * 2^53, so they are read back as numbers. A value outside the safe range is an error,
 * never a silent rounding.
 */
export const bigintNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => {
    if (value === null) return null;
    const n = Number(value);
    if (!Number.isSafeInteger(n)) throw new Error(`bigint ${value} is outside the safe integer range`);
    return n;
  },
};

/**
 * The columns every row a user owns starts with (API keys, sessions, checkouts, payments, ledger
 * rows): its uuid, its user, and when it was made.
 */
export abstract class UserOwnedRow {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
