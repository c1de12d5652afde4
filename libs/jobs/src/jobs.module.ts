import { Module } from '@nestjs/common';
import { BillingModule } from '@docconv/billing';
import { LifecycleModule } from '@docconv/lifecycle';
import { IntakeService } from './intake.service';
import { JobsService } from './jobs.service';
import { ConversionsService } from './conversions.service';
import { ParseRunner } from './parse-runner';
import { XlsxAdvancedRunner } from './xlsx-advanced.runner';

/** Needs the queues (QueueModule) and storage registered by the app. */
@Module({
  imports: [BillingModule, LifecycleModule],
  providers: [IntakeService, JobsService, ParseRunner, ConversionsService, XlsxAdvancedRunner],
  exports: [JobsService, ParseRunner, ConversionsService, XlsxAdvancedRunner, LifecycleModule],
})
export class JobsModule {}
