import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a finished job tells of its pages (and images): how many were delivered, how many were not
 * read (failed), and how many were given back (refunded: failed, never reached by a cancel, or the
 * whole job on a refund).
 */
export class PageOutcomes1764800000000 implements MigrationInterface {
  name = 'PageOutcomes1764800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE jobs
        ADD COLUMN delivered_pages integer NOT NULL DEFAULT 0 CHECK (delivered_pages >= 0),
        ADD COLUMN failed_pages integer NOT NULL DEFAULT 0 CHECK (failed_pages >= 0),
        ADD COLUMN refunded_pages integer NOT NULL DEFAULT 0 CHECK (refunded_pages >= 0)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE jobs DROP COLUMN delivered_pages, DROP COLUMN failed_pages, DROP COLUMN refunded_pages`,
    );
  }
}
