import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The quote of every checkout opened: who buys, the amount and currency asked, and the points it
 * promises. A payment is credited at its checkout's quote (one payment per checkout), and holds
 * points only once it is paid.
 */
export class CheckoutQuotes1764900000000 implements MigrationInterface {
  name = 'CheckoutQuotes1764900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE checkouts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id),
        provider text NOT NULL,
        session_id text NOT NULL,
        currency text NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        points bigint NOT NULL CHECK (points > 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE UNIQUE INDEX checkouts_provider_session ON checkouts (provider, session_id)`);
    await db.query(`
      ALTER TABLE payments
        ADD COLUMN checkout_id uuid REFERENCES checkouts (id),
        ADD CONSTRAINT payments_points_only_when_paid CHECK (status IN ('done', 'refunded') OR points_added = 0)`);
    await db.query(`CREATE UNIQUE INDEX payments_checkout ON payments (checkout_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX payments_checkout`);
    await db.query(`ALTER TABLE payments DROP CONSTRAINT payments_points_only_when_paid, DROP COLUMN checkout_id`);
    await db.query(`DROP TABLE checkouts`);
  }
}
