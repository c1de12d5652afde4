import type { DataSource } from 'typeorm';

/** Arbitrary but fixed: every process of this service takes the same lock. */
const MIGRATION_LOCK_ID = 7_384_210_551;

/**
 * Applies pending migrations while holding a PostgreSQL advisory lock, so replicas that
 * start together run them once: the first takes the lock and migrates, the others wait
 * and then find nothing pending. Returns the names of the migrations this call applied.
 */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  const lockHolder = dataSource.createQueryRunner();
  await lockHolder.connect();
  try {
    await lockHolder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await lockHolder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await lockHolder.release();
  }
}
