import { Module } from '@nestjs/common';
import { JobsModule } from '@docconv/jobs';
import { WebhooksModule } from '@docconv/webhooks';
import { JobWebhooksController } from './job-webhooks.controller';
import { WebhookSecretController } from './webhook-secret.controller';

/** The API's side of job callbacks: the signing secret and a job's deliveries. */
@Module({
  imports: [JobsModule, WebhooksModule],
  controllers: [WebhookSecretController, JobWebhooksController],
})
export class WebhooksApiModule {}
