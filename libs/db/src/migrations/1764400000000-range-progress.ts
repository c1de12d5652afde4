import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A large PDF's parse fans out over page ranges read by several workers at once: each range's
 * pages done are kept by the job, keyed by the range's first page, and `done_pages` is their sum
 * (a range read again after a crash starts its own count over, never the others').
 */
export class RangeProgress1764400000000 implements MigrationInterface {
  name = 'RangeProgress1764400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE jobs ADD COLUMN range_done_pages jsonb`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE jobs DROP COLUMN range_done_pages`);
  }
}
