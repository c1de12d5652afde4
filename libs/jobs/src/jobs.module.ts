import { Module } from '@nestjs/common';
import { BillingModule } from '@docconv/billing';
import { LifecycleModule } from '@docconv/lifecycle';
import { IntakeService } from './intake.service';
import { JobsService } from './jobs.service';
import { ConversionsService } from './conversions.service';

/** Jobs as the API serves them. Needs the queues (QueueModule) and storage registered by the app. */
@Module({
  imports: [BillingModule, LifecycleModule],
  providers: [IntakeService, JobsService, ConversionsService],
  exports: [JobsService, ConversionsService, LifecycleModule],
})
export class JobsModule {}
