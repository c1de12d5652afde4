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
  const config = loadConfig({ ...localStackEnv(), ...process.env });
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
