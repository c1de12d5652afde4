import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transactional outbox (messages a state change sends once committed) and the start time
 * of an XLSX Advanced run, by which a run past its deadline is found.
 */
export class Outbox1764200000000 implements MigrationInterface {
  name = 'Outbox1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE outbox (
        id bigserial PRIMARY KEY,
        message jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX outbox_created_at ON outbox (created_at)`);
    // Runs in flight when this ships are timed from now; new runs set it as they start.
    await db.query(`ALTER TABLE jobs ADD COLUMN xlsx_advanced_started_at timestamptz DEFAULT now()`);
    await db.query(`ALTER TABLE jobs ALTER COLUMN xlsx_advanced_started_at DROP DEFAULT`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE jobs DROP COLUMN xlsx_advanced_started_at`);
    await db.query(`DROP TABLE outbox`);
  }
}
