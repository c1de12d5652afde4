import { Inject, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { WorkerHost } from '@nestjs/bullmq';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { logContext } from '@docconv/logging';
import type { Job } from 'bullmq';
import { HandlerRegistry } from '../handlers/handler-registry';

/**
 * The shared body of every queue's processor: dispatch each job to its handler. Workers are
 * created paused (`autorun: false`) and started only once the handler check has passed,
 * with the configured concurrency.
 */
export abstract class QueueProcessor extends WorkerHost implements OnApplicationBootstrap {
  protected readonly logger = new Logger(this.constructor.name);

  @Inject(HandlerRegistry) private readonly registry!: HandlerRegistry;
  @Inject(APP_CONFIG) private readonly config!: AppConfig;

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.worker.concurrency;
    this.worker.on('failed', (job, error) =>
      this.logger.warn({ job_id: job?.id, job_name: job?.name, attempt: job?.attemptsMade, err: error }, 'Job failed'),
    );
    this.worker.on('error', (error) => this.logger.error({ err: error }, 'Queue worker error'));
    this.worker.run().catch((error: unknown) => this.logger.error({ err: error }, 'Queue worker stopped'));
  }

  process(job: Job): Promise<unknown> {
    return logContext.run({ jobId: String(job.id) }, () => this.registry.run(job));
  }
}
