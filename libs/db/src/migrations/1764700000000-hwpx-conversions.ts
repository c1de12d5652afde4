import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A finished job can be converted to HWPX (Hancom Office) as well. */
export class HwpxConversions1764700000000 implements MigrationInterface {
  name = 'HwpxConversions1764700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE job_conversions DROP CONSTRAINT job_conversions_format_check`);
    await db.query(
      `ALTER TABLE job_conversions ADD CONSTRAINT job_conversions_format_check
        CHECK (format IN ('xlsx_basic', 'xlsx_advanced', 'docx', 'pptx', 'hwpx'))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM job_conversions WHERE format = 'hwpx'`);
    await db.query(`ALTER TABLE job_conversions DROP CONSTRAINT job_conversions_format_check`);
    await db.query(
      `ALTER TABLE job_conversions ADD CONSTRAINT job_conversions_format_check
        CHECK (format IN ('xlsx_basic', 'xlsx_advanced', 'docx', 'pptx'))`,
    );
  }
}
