import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fair queueing reads, at each confirm, the pages a user has queued or running: an index of
 * those jobs alone keeps that read to the user's open jobs, however many they ever had.
 */
export class FairQueueing1764300000000 implements MigrationInterface {
  name = 'FairQueueing1764300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX jobs_user_open ON jobs (user_id) WHERE status IN ('queued', 'processing')`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX jobs_user_open`);
  }
}
