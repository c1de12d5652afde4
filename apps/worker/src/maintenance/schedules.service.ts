import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { DEFAULT_JOB_OPTIONS, SCHEDULED_JOBS } from '@docconv/contracts';
import type { Queue } from 'bullmq';

/** Upserts the repeating jobs; BullMQ keeps one schedule per id however many workers do this. */
@Injectable()
export class SchedulesService implements OnApplicationBootstrap {
  constructor(@InjectQueue('maintenance') private readonly maintenance: Queue) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const { name, everyMs } of SCHEDULED_JOBS) {
      await this.maintenance.upsertJobScheduler(
        name,
        { every: everyMs },
        { name, data: {}, opts: { ...DEFAULT_JOB_OPTIONS, attempts: 1 } },
      );
    }
  }
}
