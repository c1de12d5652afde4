import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A job is sent to the queue of the worker pool its files need: `speech` for recordings,
 * `office` for files LibreOffice reads, `parse` for the rest. Jobs made before are given theirs.
 */
export class ParseQueues1764500000000 implements MigrationInterface {
  name = 'ParseQueues1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE jobs ADD COLUMN parse_queue text NOT NULL DEFAULT 'parse'`);
    await db.query(
      `ALTER TABLE jobs ADD CONSTRAINT jobs_parse_queue CHECK (parse_queue IN ('parse', 'office', 'speech'))`,
    );
    await db.query(`UPDATE jobs SET parse_queue = 'speech' WHERE media_duration_seconds > 0`);
    await db.query(
      `UPDATE jobs SET parse_queue = 'office'
        WHERE parse_queue = 'parse'
          AND EXISTS (SELECT 1 FROM job_files f
                       WHERE f.job_id = jobs.id AND f.kind IN ('odt', 'ods', 'odp', 'doc', 'xls', 'ppt', 'rtf'))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE jobs DROP COLUMN parse_queue`);
  }
}
