import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createDataSource, dataSourceOptions, migrate, MIGRATIONS } from '@docconv/db';

describe('migrations', () => {
  const server = process.env.DOCCONV_TEST_SERVER_URL!;
  const database = `docconv_migrate_${randomBytes(4).toString('hex')}`;
  const url = Object.assign(new URL(server), { pathname: `/${database}` }).toString();

  beforeAll(async () => {
    const admin = new Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
  });
  afterAll(async () => {
    const admin = new Client({ connectionString: server });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  it('replicas starting together apply each migration exactly once', async () => {
    const replicas = await Promise.all([1, 2, 3, 4].map(() => createDataSource(url).initialize()));
    try {
      const applied = await Promise.all(replicas.map((ds) => migrate(ds)));
      expect(applied.flat()).toHaveLength(MIGRATIONS.length);
      const rows: unknown[] = await replicas[0].query('SELECT name FROM schema_migrations');
      expect(rows).toHaveLength(MIGRATIONS.length);
      expect(await migrate(replicas[0])).toEqual([]);
    } finally {
      await Promise.all(replicas.map((ds) => ds.destroy()));
    }
  });

  it('moves the conversions recorded on jobs into job_conversions, runs, charges and notes included', async () => {
    const other = `${database}_carry`;
    const carryUrl = Object.assign(new URL(server), { pathname: `/${other}` }).toString();
    const admin = new Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${other}`);
    // The database as it stood before the lifecycle migration.
    const lifecycle = MIGRATIONS.findIndex((migration) => migration.name === 'Lifecycle1764200000000');
    const before = new DataSource({ ...dataSourceOptions(carryUrl), migrations: MIGRATIONS.slice(0, lifecycle) });
    await before.initialize();
    try {
      await before.runMigrations();
      const [user] = await before.query<{ id: string }[]>(
        `INSERT INTO users (email, password_hash) VALUES ('carry@example.test', 'x') RETURNING id`,
      );
      const [done] = await before.query<{ id: string }[]>(
        `INSERT INTO jobs (user_id, status, ocr_model, ocr_engine, file_type, filename, quote, quoted_points, expires_at,
                           xlsx_basic_path, docx_path, xlsx_advanced_status, xlsx_advanced_job_id, xlsx_advanced_refundable,
                           xlsx_advanced_recovery_notes)
         VALUES ($1, 'done', 'premium', 'tesseract', 'pdf', 'carried.pdf', '{}', 0, now(),
                 'results/x/result.basic.xlsx', 'results/x/result.docx', NULL, '6f1c1a40-37b4-4d0b-9b8e-0b3c1c7a3f10', true,
                 'The workbook could not be built.')
         RETURNING id`,
        [user.id],
      );
      // The run was started twice (it failed, was retried and failed again), and charged 12 points when it started.
      for (const status of ['processing', 'error', 'processing', 'error']) {
        await before.query(`UPDATE jobs SET xlsx_advanced_status = $2 WHERE id = $1`, [done.id, status]);
      }
      await before.query(`UPDATE users SET points_balance = 100 WHERE id = $1`, [user.id]);
      await before.query(
        `INSERT INTO credit_transactions (user_id, job_id, type, amount, balance_after, description, idempotency_key)
         VALUES ($1, $2, 'spend', -12, 88, 'XLSX Advanced', 'xlsx-advanced:6f1c1a40-37b4-4d0b-9b8e-0b3c1c7a3f10'),
                ($1, $2, 'spend', -4, 84, 'XLSX Basic', 'job:' || $2 || ':convert:xlsx_basic')`,
        [user.id, done.id],
      );
    } finally {
      await before.destroy();
    }

    const after = createDataSource(carryUrl);
    await after.initialize();
    try {
      expect(await migrate(after)).toEqual(MIGRATIONS.slice(lifecycle).map((migration) => migration.name));
      const rows = await after.query(
        `SELECT format, status, run_id, attempt, refundable, notes, path, charge_points::int AS charge
           FROM job_conversions ORDER BY format`,
      );
      expect(rows).toEqual([
        {
          format: 'docx',
          status: 'done',
          run_id: expect.any(String),
          attempt: 1,
          refundable: false,
          notes: null,
          path: 'results/x/result.docx',
          charge: 0,
        },
        {
          format: 'xlsx_advanced',
          status: 'error',
          run_id: '6f1c1a40-37b4-4d0b-9b8e-0b3c1c7a3f10',
          attempt: 2,
          refundable: true,
          notes: 'The workbook could not be built.',
          path: null,
          charge: 12,
        },
        {
          format: 'xlsx_basic',
          status: 'done',
          run_id: expect.any(String),
          attempt: 1,
          refundable: false,
          notes: null,
          path: 'results/x/result.basic.xlsx',
          charge: 4,
        },
      ]);
      const columns = await after.query<{ column_name: string }[]>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'jobs' AND column_name LIKE '%xlsx%'`,
      );
      expect(columns).toEqual([]);
    } finally {
      await after.destroy();
      await admin.query(`DROP DATABASE IF EXISTS ${other} WITH (FORCE)`);
      await admin.end();
    }
  });
});
