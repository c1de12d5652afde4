import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a job does with page furniture (running heads and feet, page numbers, headers and
 * footers): `drop` (what every job did before), `keep` in the Markdown, or `separate` into the
 * structured result.
 */
export class PageFurniture1765200000000 implements MigrationInterface {
  name = 'PageFurniture1765200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE jobs
        ADD COLUMN page_furniture text NOT NULL DEFAULT 'drop'
          CHECK (page_furniture IN ('drop', 'keep', 'separate'))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE jobs DROP COLUMN page_furniture`);
  }
}
