import 'reflect-metadata';
import { localStackEnv } from '@docconv/config';
import { createDataSource, migrate } from '@docconv/db';

/** `npm run migrate`: applies pending migrations to DATABASE_URL (or the running local stack's database). */
async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? localStackEnv().DATABASE_URL;
  if (!url) throw new Error('Set DATABASE_URL, or start the local stack with `npm start` first.');
  const dataSource = await createDataSource(url).initialize();
  try {
    const applied = await migrate(dataSource);
    process.stdout.write(
      applied.length ? `applied: ${applied.join(', ')}\n` : 'nothing to apply: the schema is current\n',
    );
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`docconv migrate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
