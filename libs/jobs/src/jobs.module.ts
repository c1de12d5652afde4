import { Module } from '@nestjs/common';
import { BillingModule } from '@docconv/billing';
import { IntakeService } from './intake.service';
import { JobsService } from './jobs.service';
import { JobsMaintenanceService } from './maintenance.service';
import { ConversionsService } from './conversions.service';
import { JobEvents } from './job-events';
import { ParseRunner } from './parse-runner';
import { XlsxAdvancedRunner } from './xlsx-advanced.runner';

/** Needs the queues (QueueModule) and storage registered by the app. */
@Module({
  imports: [BillingModule],
  providers: [
    IntakeService,
    JobsService,
    ParseRunner,
    JobsMaintenanceService,
    ConversionsService,
    XlsxAdvancedRunner,
    JobEvents,
  ],
  exports: [JobsService, ParseRunner, JobsMaintenanceService, ConversionsService, XlsxAdvancedRunner, JobEvents],
})
export class JobsModule {}
