import { Column, Entity } from 'typeorm';
import { bigintNumber } from './column-types';
import { UserOwnedRow } from './user-owned-row';

/** A checkout opened for a user: what it asks and what it promises. Written once, when it is opened. */
@Entity({ name: 'checkouts' })
export class CheckoutEntity extends UserOwnedRow {
  @Column({ type: 'text' })
  provider!: string;

  /** The provider's session id, e.g. `cs_…`. */
  @Column({ name: 'session_id', type: 'text' })
  sessionId!: string;

  /** ISO 4217 code, upper case (`USD`). */
  @Column({ type: 'text' })
  currency!: string;

  /** The amount the buyer is asked to pay, in the currency's minor unit (cents). */
  @Column({ name: 'amount_cents', type: 'bigint', transformer: bigintNumber })
  amountCents!: number;

  /** The points the checkout promised: what its payment credits once paid. */
  @Column({ type: 'bigint', transformer: bigintNumber })
  points!: number;
}
