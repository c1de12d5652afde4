import { Column, Entity } from 'typeorm';
import { bigintNumber } from './column-types';
import { UserOwnedRow } from './user-owned-row';

@Entity({ name: 'api_keys' })
export class ApiKeyEntity extends UserOwnedRow {
  @Column({ type: 'text' })
  name!: string;

  /** The visible leading part of the key, for telling keys apart. */
  @Column({ type: 'text' })
  prefix!: string;

  /** SHA-256 of the whole key; the key itself is never stored. */
  @Column({ name: 'key_hash', type: 'bytea', select: false })
  keyHash!: Buffer;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  @Column({ name: 'rate_limit_rpm', type: 'integer' })
  rateLimitRpm!: number;

  /** Points per UTC day; null means unlimited. */
  @Column({ name: 'daily_quota', type: 'bigint', nullable: true, transformer: bigintNumber })
  dailyQuota!: number | null;

  @Column({ name: 'is_active', type: 'boolean' })
  isActive!: boolean;

  @Column({ name: 'deactivated_at', type: 'timestamptz', nullable: true })
  deactivatedAt!: Date | null;
}
