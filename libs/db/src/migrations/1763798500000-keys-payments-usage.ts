import type { MigrationInterface, QueryRunner } from 'typeorm';

export class KeysPaymentsUsage1763798500000 implements MigrationInterface {
  name = 'KeysPaymentsUsage1763798500000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id),
        name text NOT NULL DEFAULT '',
        prefix text NOT NULL,
        key_hash bytea NOT NULL,
        scopes text[] NOT NULL,
        rate_limit_rpm integer NOT NULL CHECK (rate_limit_rpm BETWEEN 1 AND 100000),
        daily_quota bigint CHECK (daily_quota >= 0),
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        deactivated_at timestamptz,
        CONSTRAINT api_keys_scopes_known CHECK (scopes <@ ARRAY['jobs:read', 'jobs:write']::text[])
      )`);
    await db.query(`CREATE UNIQUE INDEX api_keys_key_hash ON api_keys (key_hash)`);
    await db.query(`CREATE INDEX api_keys_user ON api_keys (user_id, created_at DESC)`);
    await db.query(`
      ALTER TABLE credit_transactions
        ADD CONSTRAINT credit_transactions_api_key FOREIGN KEY (api_key_id) REFERENCES api_keys (id)`);
    await db.query(`
      CREATE INDEX credit_transactions_key_spends ON credit_transactions (api_key_id, created_at)
        WHERE type = 'spend'`);

    await db.query(`
      CREATE TABLE payments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id),
        provider text NOT NULL,
        external_id text NOT NULL,
        currency text NOT NULL,
        amount numeric(14, 2) NOT NULL CHECK (amount >= 0),
        points_added bigint NOT NULL CHECK (points_added >= 0),
        status text NOT NULL CHECK (status IN ('pending', 'done', 'failed', 'refunded')),
        paid_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE UNIQUE INDEX payments_provider_external ON payments (provider, external_id)`);
    await db.query(`CREATE INDEX payments_user ON payments (user_id, created_at DESC)`);

    await db.query(`
      CREATE TABLE daily_usage (
        user_id uuid NOT NULL REFERENCES users (id),
        day date NOT NULL,
        requests bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, day)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE daily_usage`);
    await db.query(`DROP TABLE payments`);
    await db.query(`DROP INDEX credit_transactions_key_spends`);
    await db.query(`ALTER TABLE credit_transactions DROP CONSTRAINT credit_transactions_api_key`);
    await db.query(`DROP TABLE api_keys`);
  }
}
