import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { logContext } from '@docconv/logging';
import { queueConnectionOptions, queuePrefix } from '@docconv/redis';
import { Worker, type Job } from 'bullmq';
import { HandlerRegistry } from '../handlers/handler-registry';

/**
 * One BullMQ worker per queue this worker serves (WORKER_QUEUES, all by default), started only
 * after the handler check passed, with the configured concurrency and lock timing. On shutdown
 * each stops taking jobs and waits for the ones in hand; a job whose worker died is taken over
 * once its lock lapses.
 */
@Injectable()
export class QueueWorkers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(QueueWorkers.name);
  private readonly workers: Worker[] = [];

  constructor(
    private readonly registry: HandlerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const { concurrency, lockMs, stalledIntervalMs, maxStalledCount } = this.config.worker;
    for (const queue of this.config.worker.queues) {
      const worker = new Worker(
        queue,
        (job: Job) => logContext.run({ jobId: String(job.id) }, () => this.registry.run(job)),
        {
          connection: queueConnectionOptions(this.config.redis.url),
          prefix: queuePrefix(this.config),
          concurrency,
          lockDuration: lockMs,
          stalledInterval: stalledIntervalMs,
          // A job survives a few dead workers before the queue gives up on it.
          maxStalledCount,
        },
      );
      worker.on('failed', (job, error) =>
        this.logger.warn(
          { job_id: job?.id, job_name: job?.name, attempt: job?.attemptsMade, err: error },
          'Job failed',
        ),
      );
      worker.on('error', (error) => this.logger.error({ err: error }, `Queue worker error on ${queue}`));
      this.workers.push(worker);
    }
  }

  /** Runs before the database and Redis connections close, so jobs in hand can finish. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
  }
}
