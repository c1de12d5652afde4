import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The members of an upload's archives and e-mails that were not converted, each with its reason. */
export class SkippedFiles1764100000000 implements MigrationInterface {
  name = 'SkippedFiles1764100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE jobs ADD COLUMN skipped_files jsonb NOT NULL DEFAULT '[]'::jsonb`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE jobs DROP COLUMN skipped_files`);
  }
}
