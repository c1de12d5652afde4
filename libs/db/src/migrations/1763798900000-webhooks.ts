import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Job callbacks: the URL a job reports its end to, the per-user signing secret, and one row
 * per event to deliver. A unique (job, event type, occurrence) key makes recording an event
 * idempotent, so the API and a worker that both hear of the same end record it once.
 */
export class Webhooks1763798900000 implements MigrationInterface {
  name = 'Webhooks1763798900000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE users ADD COLUMN webhook_secret text`);
    await db.query(`
      ALTER TABLE jobs
        ADD COLUMN callback_url text CHECK (char_length(callback_url) BETWEEN 1 AND 2048),
        ADD COLUMN xlsx_advanced_runs integer NOT NULL DEFAULT 0 CHECK (xlsx_advanced_runs >= 0)`);
    // Every start of an XLSX Advanced run (first conversion, retry, conversion after a refund)
    // counts here, so the end of each run is an event of its own even when the conversion id repeats.
    await db.query(`
      CREATE FUNCTION jobs_count_xlsx_advanced_runs() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.xlsx_advanced_runs := OLD.xlsx_advanced_runs + 1;
        RETURN NEW;
      END $$`);
    await db.query(`
      CREATE TRIGGER jobs_count_xlsx_advanced_runs BEFORE UPDATE OF xlsx_advanced_status ON jobs
      FOR EACH ROW
      WHEN (NEW.xlsx_advanced_status = 'processing' AND OLD.xlsx_advanced_status IS DISTINCT FROM 'processing')
      EXECUTE FUNCTION jobs_count_xlsx_advanced_runs()`);

    await db.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        event_type text NOT NULL CHECK (event_type IN
          ('job.done', 'job.error', 'job.cancelled', 'xlsx_advanced.done', 'xlsx_advanced.error')),
        -- which end of the job this is: its attempt (attempt-<retry_count>) or its XLSX Advanced run (xlsx-run-<n>)
        occurrence text NOT NULL,
        url text NOT NULL,
        -- the event as sent, byte for byte on every attempt (json, not jsonb, keeps it as written)
        payload json NOT NULL,
        attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        last_status_code integer,
        last_error text,
        last_attempt_at timestamptz,
        next_attempt_at timestamptz,
        delivered_at timestamptz,
        gave_up_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
        CONSTRAINT webhook_deliveries_one_per_event UNIQUE (job_id, event_type, occurrence),
        CONSTRAINT webhook_deliveries_one_outcome CHECK (delivered_at IS NULL OR gave_up_at IS NULL)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_deliveries`);
    await db.query(`DROP TRIGGER jobs_count_xlsx_advanced_runs ON jobs`);
    await db.query(`DROP FUNCTION jobs_count_xlsx_advanced_runs()`);
    await db.query(`ALTER TABLE jobs DROP COLUMN xlsx_advanced_runs, DROP COLUMN callback_url`);
    await db.query(`ALTER TABLE users DROP COLUMN webhook_secret`);
  }
}
