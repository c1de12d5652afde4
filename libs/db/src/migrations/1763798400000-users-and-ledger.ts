import type { MigrationInterface, QueryRunner } from 'typeorm';

export class UsersAndLedger1763798400000 implements MigrationInterface {
  name = 'UsersAndLedger1763798400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        password_hash text NOT NULL,
        points_balance bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT users_email_lower CHECK (email = lower(email)),
        CONSTRAINT users_points_balance_non_negative CHECK (points_balance >= 0)
      )`);
    await db.query(`CREATE UNIQUE INDEX users_email_key ON users (email)`);

    await db.query(`
      CREATE TABLE credit_transactions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id),
        api_key_id uuid,
        job_id uuid,
        type text NOT NULL CHECK (type IN ('charge', 'spend', 'refund', 'grant')),
        amount bigint NOT NULL CHECK (amount <> 0),
        balance_after bigint NOT NULL CHECK (balance_after >= 0),
        description text NOT NULL,
        idempotency_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT credit_transactions_sign CHECK ((type = 'spend') = (amount < 0))
      )`);
    await db.query(`CREATE UNIQUE INDEX credit_transactions_idempotency_key ON credit_transactions (idempotency_key)`);
    await db.query(`CREATE INDEX credit_transactions_user_created ON credit_transactions (user_id, created_at DESC)`);
    // The ledger is append-only: refuse every UPDATE and DELETE at the database itself.
    await db.query(`
      CREATE FUNCTION credit_transactions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'credit_transactions is append-only';
      END $$`);
    await db.query(`
      CREATE TRIGGER credit_transactions_append_only BEFORE UPDATE OR DELETE ON credit_transactions
      FOR EACH ROW EXECUTE FUNCTION credit_transactions_append_only()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE credit_transactions`);
    await db.query(`DROP FUNCTION credit_transactions_append_only()`);
    await db.query(`DROP TABLE users`);
  }
}
