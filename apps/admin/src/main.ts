import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig, localStackEnv } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import { AdminModule } from './admin.module';
import { runCommand, USAGE } from './commands';

/** Operator commands that need no HTTP: create users, grant credits, issue session tokens. */
async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === '--help') {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  const stack = localStackEnv();
  if (Object.keys(stack).length === 0 && (!process.env.DATABASE_URL || !process.env.REDIS_URL)) {
    throw new Error(
      'the local stack is not running: start it with ./scripts/start.sh (or npm start), or set DATABASE_URL and REDIS_URL to your servers.',
    );
  }
  const config = loadConfig({ ...stack, ...process.env });
  const app = await NestFactory.createApplicationContext(AdminModule.forRoot(config), { logger: ['error'] });
  try {
    process.stdout.write(`${await runCommand(app, argv)}\n`);
    return 0;
  } finally {
    await app.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message =
      error instanceof DomainError || error instanceof ConfigError || error instanceof Error
        ? error.message
        : String(error);
    process.stderr.write(`docconv admin: ${message}\n`);
    process.exit(1);
  },
);
