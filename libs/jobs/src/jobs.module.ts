import { Module } from '@nestjs/common';
import { BillingModule } from '@docconv/billing';
import { JobsService } from './jobs.service';
import { JobsMaintenanceService } from './maintenance.service';
import { ParseRunner } from './parse-runner';

/** Needs the queues (QueueModule) and storage registered by the app. */
@Module({
  imports: [BillingModule],
  providers: [JobsService, ParseRunner, JobsMaintenanceService],
  exports: [JobsService, ParseRunner, JobsMaintenanceService],
})
export class JobsModule {}
