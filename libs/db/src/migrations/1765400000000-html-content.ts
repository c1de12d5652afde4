import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a job reads of a web page: `main`, the article of a whole web page without the site
 * around it, or `full`, the whole page (what every job read before, less the page's own header
 * and footer, which `full` now keeps).
 */
export class HtmlContent1765400000000 implements MigrationInterface {
  name = 'HtmlContent1765400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE jobs
        ADD COLUMN html_content text NOT NULL DEFAULT 'main'
          CHECK (html_content IN ('main', 'full'))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE jobs DROP COLUMN html_content`);
  }
}
