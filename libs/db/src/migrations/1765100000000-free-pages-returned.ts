import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The free pages a job gave back of those its quote reserved: the ones of pages and files not
 * delivered (when it ends), or all of them (cancelled before processing, expired, refunded). A
 * user's free pages used this month are the reserved ones minus those given back.
 */
export class FreePagesReturned1765100000000 implements MigrationInterface {
  name = 'FreePagesReturned1765100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE jobs
        ADD COLUMN free_pages_returned integer NOT NULL DEFAULT 0
          CHECK (free_pages_returned >= 0 AND free_pages_returned <= free_pages_used)`,
    );
    // Until now a cancelled or refunded job gave back every free page it had reserved.
    await db.query(
      `UPDATE jobs SET free_pages_returned = free_pages_used WHERE status = 'cancelled' OR refunded_at IS NOT NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE jobs DROP COLUMN free_pages_returned`);
  }
}
