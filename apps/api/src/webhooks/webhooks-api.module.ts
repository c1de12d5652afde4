import { Module } from '@nestjs/common';
import { JobsModule } from '@docconv/jobs';
import { WebhooksModule } from '@docconv/webhooks';
import { JobWebhooksController } from './job-webhooks.controller';
import { WebhookEventsListener } from './webhook-events.listener';
import { WebhookSecretController } from './webhook-secret.controller';
import { WebhooksViewService } from './webhooks-view.service';

/** The API's side of job callbacks: the signing secret, a job's deliveries, and recording the ends it causes. */
@Module({
  imports: [JobsModule, WebhooksModule],
  controllers: [WebhookSecretController, JobWebhooksController],
  providers: [WebhooksViewService, WebhookEventsListener],
})
export class WebhooksApiModule {}
