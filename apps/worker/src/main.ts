import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { bootProcess, closeOnSignals } from '@docconv/config';
import { createRootLogger, PinoNestLogger } from '@docconv/logging';
import { WorkerModule } from './worker.module';

/**
 * The worker serves no API, only its metrics (on WORKER_METRICS_PORT when set). On SIGTERM or
 * SIGINT (or when the local stack's launcher that started it goes away) it stops taking jobs,
 * lets the ones in flight finish, and exits; a job it could not finish is picked up again by another worker.
 */
async function main(): Promise<void> {
  const config = bootProcess('worker');
  const logger = new PinoNestLogger(createRootLogger(config.logLevel, 'worker', config.logFormat));
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger, abortOnError: false });
  closeOnSignals(app, (error) => logger.error(`Stopping failed: ${String(error)}`, 'Worker'));
  await app.init();
  logger.log(`Worker ready with concurrency ${config.worker.concurrency}`, 'Worker');
}

main().catch((error: unknown) => {
  process.stderr.write(`docconv worker failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
