import { Module } from '@nestjs/common';
import { WebhookDeliverer } from './webhook-deliverer.service';
import { WebhookDeliveries } from './webhook-deliveries.service';
import { WebhookSecrets } from './webhook-secrets.service';

/**
 * Job callbacks for both apps. Needs the database, configuration and queues registered by
 * the app. The job lifecycle records a delivery in the transaction that ends a job (this
 * library sits below it, and below the jobs library, which checks callback URLs with it).
 */
@Module({
  providers: [WebhookSecrets, WebhookDeliveries, WebhookDeliverer],
  exports: [WebhookSecrets, WebhookDeliveries, WebhookDeliverer],
})
export class WebhooksModule {}
