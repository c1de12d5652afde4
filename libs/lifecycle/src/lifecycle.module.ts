import { Module } from '@nestjs/common';
import { BillingModule } from '@docconv/billing';
import { WebhooksModule } from '@docconv/webhooks';
import { JobEvents } from './job-events';
import { JobLifecycle } from './job-lifecycle';
import { Outbox } from './outbox';
import { Sweeper } from './sweeper';

/** The job's state and what it tells the world. Needs the database, Redis, queues and storage registered by the app. */
@Module({
  imports: [BillingModule, WebhooksModule],
  providers: [JobEvents, Outbox, JobLifecycle, Sweeper],
  exports: [JobEvents, JobLifecycle, Sweeper, WebhooksModule],
})
export class LifecycleModule {}
