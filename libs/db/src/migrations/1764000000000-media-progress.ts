import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Transcription progress: the seconds of a job's recordings transcribed so far. */
export class MediaProgress1764000000000 implements MigrationInterface {
  name = 'MediaProgress1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE jobs ADD COLUMN done_media_seconds integer NOT NULL DEFAULT 0 CHECK (done_media_seconds >= 0)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE jobs DROP COLUMN done_media_seconds`);
  }
}
