import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many pages a job's current attempt has delivered as it was read (stored under
 * results/<job>/pages/<retry>/): what a partial download joins and a reconnecting event stream replays.
 */
export class PageEvents1765300000000 implements MigrationInterface {
  name = 'PageEvents1765300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE jobs ADD COLUMN page_events integer NOT NULL DEFAULT 0 CHECK (page_events >= 0)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE jobs DROP COLUMN page_events`);
  }
}
