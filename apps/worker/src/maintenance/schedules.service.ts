import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { DEFAULT_JOB_OPTIONS, SCHEDULED_JOBS } from '@docconv/contracts';
import type { Queue } from 'bullmq';

/** How often the worker checks that the schedules are still there (a Redis that restarted empty has lost them). */
const CHECK_MS = 5_000;

/**
 * Upserts the repeating jobs at boot, and again whenever one has gone missing (Redis restarted
 * without its data). BullMQ keeps one schedule per id however many workers do this.
 */
@Injectable()
export class SchedulesService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SchedulesService.name);
  private timer?: NodeJS.Timeout;

  constructor(@InjectQueue('maintenance') private readonly maintenance: Queue) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.upsert();
    this.timer = setInterval(() => {
      this.renewIfMissing().catch((error: unknown) =>
        this.logger.warn({ err: error }, 'Schedules not checked; Redis is unreachable'),
      );
    }, CHECK_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async renewIfMissing(): Promise<void> {
    if ((await this.maintenance.getJobSchedulersCount()) >= SCHEDULED_JOBS.length) return;
    this.logger.warn('Maintenance schedules were missing from Redis; scheduling them again');
    await this.upsert();
  }

  private async upsert(): Promise<void> {
    for (const { name, everyMs } of SCHEDULED_JOBS) {
      await this.maintenance.upsertJobScheduler(
        name,
        { every: everyMs },
        { name, data: {}, opts: { ...DEFAULT_JOB_OPTIONS, attempts: 1 } },
      );
    }
  }
}
