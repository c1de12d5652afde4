import { Column, Entity } from 'typeorm';
import { bigintNumber } from './column-types';
import { UserOwnedRow } from './user-owned-row';

export type PaymentStatus = 'pending' | 'done' | 'failed' | 'refunded';

@Entity({ name: 'payments' })
export class PaymentEntity extends UserOwnedRow {
  @Column({ type: 'text' })
  provider!: string;

  @Column({ name: 'external_id', type: 'text' })
  externalId!: string;

  @Column({ type: 'text' })
  currency!: string;

  /** Decimal with two fraction digits, kept as text so no float ever touches money. */
  @Column({ type: 'numeric', precision: 14, scale: 2 })
  amount!: string;

  @Column({ name: 'points_added', type: 'bigint', transformer: bigintNumber })
  pointsAdded!: number;

  @Column({ type: 'text' })
  status!: PaymentStatus;

  /** The checkout this payment pays (null for payments recorded before checkouts were kept). */
  @Column({ name: 'checkout_id', type: 'uuid', nullable: true })
  checkoutId!: string | null;

  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true })
  paidAt!: Date | null;
}
