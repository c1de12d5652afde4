import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Jobs1763798600000 implements MigrationInterface {
  name = 'Jobs1763798600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE jobs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id),
        api_key_id uuid REFERENCES api_keys (id),
        status text NOT NULL CHECK (status IN ('pending', 'queued', 'processing', 'done', 'error', 'cancelled')),
        ocr_model text NOT NULL CHECK (ocr_model IN ('basic', 'premium')),
        ocr_engine text NOT NULL CHECK (ocr_engine IN ('tesseract', 'easyocr', 'rapidocr')),
        file_type text NOT NULL,
        filename text NOT NULL CHECK (char_length(filename) BETWEEN 1 AND 200),
        total_pages integer NOT NULL DEFAULT 0 CHECK (total_pages >= 0),
        done_pages integer NOT NULL DEFAULT 0 CHECK (done_pages >= 0),
        total_files integer NOT NULL DEFAULT 0 CHECK (total_files >= 0),
        done_files integer NOT NULL DEFAULT 0 CHECK (done_files >= 0),
        image_count integer NOT NULL DEFAULT 0,
        audio_seconds integer NOT NULL DEFAULT 0,
        video_seconds integer NOT NULL DEFAULT 0,
        media_duration_seconds integer NOT NULL DEFAULT 0,
        docling_refinement boolean NOT NULL DEFAULT false,
        docling_refinement_pages integer NOT NULL DEFAULT 0,
        dpi integer NOT NULL DEFAULT 300 CHECK (dpi BETWEEN 72 AND 600),
        columns jsonb,
        prompt text NOT NULL DEFAULT '',
        quote jsonb NOT NULL,
        quoted_points bigint NOT NULL CHECK (quoted_points >= 0),
        free_pages_used integer NOT NULL DEFAULT 0 CHECK (free_pages_used >= 0),
        cost_points bigint NOT NULL DEFAULT 0 CHECK (cost_points >= 0),
        refunded_points bigint NOT NULL DEFAULT 0 CHECK (refunded_points >= 0),
        refundable boolean NOT NULL DEFAULT false,
        retry_count integer NOT NULL DEFAULT 0 CHECK (retry_count BETWEEN 0 AND 3),
        error_log text,
        result_path text,
        xlsx_basic_path text,
        xlsx_advanced_path text,
        xlsx_advanced_status text CHECK (xlsx_advanced_status IN ('processing', 'done', 'error', 'refunded')),
        xlsx_advanced_job_id text,
        xlsx_advanced_refundable boolean NOT NULL DEFAULT false,
        xlsx_advanced_recovery_notes text,
        docx_path text,
        pptx_path text,
        -- millisecond precision, so a cursor built from a JavaScript Date finds its row again
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
        expires_at timestamptz NOT NULL,
        confirmed_at timestamptz,
        started_at timestamptz,
        finished_at timestamptz,
        cancelled_at timestamptz,
        refunded_at timestamptz
      )`);
    await db.query(`CREATE INDEX jobs_user_created ON jobs (user_id, created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX jobs_pending_expiry ON jobs (expires_at) WHERE status = 'pending'`);
    await db.query(`CREATE INDEX jobs_queued ON jobs (confirmed_at) WHERE status IN ('queued', 'processing')`);
    await db.query(`
      ALTER TABLE credit_transactions
        ADD CONSTRAINT credit_transactions_job FOREIGN KEY (job_id) REFERENCES jobs (id)`);

    await db.query(`
      CREATE TABLE job_files (
        job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        display_path text NOT NULL,
        storage_path text NOT NULL,
        kind text NOT NULL,
        mime_type text NOT NULL,
        bytes bigint NOT NULL,
        pages integer NOT NULL DEFAULT 0,
        images integer NOT NULL DEFAULT 0,
        duration_seconds integer NOT NULL DEFAULT 0,
        PRIMARY KEY (job_id, seq)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE job_files`);
    await db.query(`ALTER TABLE credit_transactions DROP CONSTRAINT credit_transactions_job`);
    await db.query(`DROP TABLE jobs`);
  }
}
