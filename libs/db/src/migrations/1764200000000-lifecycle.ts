import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The job lifecycle's own tables: the transactional outbox (messages a state change sends once
 * committed), and the conversions of a job's Markdown (XLSX Basic and Advanced, DOCX, PPTX) in
 * a table of their own, carried over from the job's columns; and the moment the owner cancelled
 * a processing job (the worker stops at the next page).
 */
export class Lifecycle1764200000000 implements MigrationInterface {
  name = 'Lifecycle1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE outbox (
        id bigserial PRIMARY KEY,
        message jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX outbox_created_at ON outbox (created_at)`);
    await db.query(`ALTER TABLE jobs ADD COLUMN cancel_requested_at timestamptz`);

    await db.query(`
      CREATE TABLE job_conversions (
        job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        format text NOT NULL CHECK (format IN ('xlsx_basic', 'xlsx_advanced', 'docx', 'pptx')),
        status text NOT NULL CHECK (status IN ('processing', 'done', 'error', 'refunded')),
        run_id uuid NOT NULL,
        attempt integer NOT NULL DEFAULT 1 CHECK (attempt >= 1),
        refundable boolean NOT NULL DEFAULT false,
        notes text,
        path text,
        charge_points bigint NOT NULL DEFAULT 0 CHECK (charge_points >= 0),
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        PRIMARY KEY (job_id, format)
      )`);
    await db.query(
      `CREATE INDEX job_conversions_processing ON job_conversions (started_at) WHERE status = 'processing'`,
    );
    // The files rendered in the API: done, charged what their first conversion's ledger row says.
    for (const [format, column] of [
      ['xlsx_basic', 'xlsx_basic_path'],
      ['docx', 'docx_path'],
      ['pptx', 'pptx_path'],
    ]) {
      await db.query(
        `INSERT INTO job_conversions (job_id, format, status, run_id, path, charge_points, started_at, finished_at)
         SELECT j.id, $1, 'done', gen_random_uuid(), j.${column},
                coalesce((SELECT -t.amount FROM credit_transactions t WHERE t.idempotency_key = 'job:' || j.id || ':convert:' || $1), 0),
                coalesce(j.finished_at, j.created_at), j.finished_at
           FROM jobs j WHERE j.${column} IS NOT NULL`,
        [format],
      );
    }
    // XLSX Advanced runs, with their id, how many were started, and where the last one stands.
    await db.query(`
      INSERT INTO job_conversions (job_id, format, status, run_id, attempt, refundable, notes, path, charge_points, started_at)
      SELECT j.id, 'xlsx_advanced', j.xlsx_advanced_status, j.xlsx_advanced_job_id::uuid, greatest(j.xlsx_advanced_runs, 1),
             j.xlsx_advanced_refundable, j.xlsx_advanced_recovery_notes, j.xlsx_advanced_path,
             coalesce((SELECT -t.amount FROM credit_transactions t WHERE t.idempotency_key = 'xlsx-advanced:' || j.xlsx_advanced_job_id), 0),
             now()
        FROM jobs j WHERE j.xlsx_advanced_status IS NOT NULL`);
    await db.query(`DROP TRIGGER jobs_count_xlsx_advanced_runs ON jobs`);
    await db.query(`DROP FUNCTION jobs_count_xlsx_advanced_runs()`);
    await db.query(`
      ALTER TABLE jobs
        DROP COLUMN xlsx_basic_path, DROP COLUMN docx_path, DROP COLUMN pptx_path,
        DROP COLUMN xlsx_advanced_status, DROP COLUMN xlsx_advanced_job_id, DROP COLUMN xlsx_advanced_runs,
        DROP COLUMN xlsx_advanced_refundable, DROP COLUMN xlsx_advanced_recovery_notes, DROP COLUMN xlsx_advanced_path`);
  }

  async down(): Promise<void> {
    throw new Error('This migration cannot be reverted: restore the database from a backup taken before it.');
  }
}
