import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDataSource, migrate, MIGRATIONS } from '@docconv/db';

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
});
