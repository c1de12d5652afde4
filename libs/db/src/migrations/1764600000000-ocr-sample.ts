import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Intake looks at the text layer of a few pages of each PDF: whether some look scanned decides
 * how a large PDF is spread over page ranges (OCR'd pages take seconds each, text pages
 * milliseconds). Files taken in before are counted as needing OCR, which only makes their
 * ranges shorter.
 */
export class OcrSample1764600000000 implements MigrationInterface {
  name = 'OcrSample1764600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE job_files ADD COLUMN needs_ocr boolean`);
    await db.query(`UPDATE job_files SET needs_ocr = (kind = 'pdf')`);
    await db.query(`ALTER TABLE job_files ALTER COLUMN needs_ocr SET NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE job_files DROP COLUMN needs_ocr`);
  }
}
