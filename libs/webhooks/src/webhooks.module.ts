import { Module } from '@nestjs/common';
import { WebhookDeliverer } from './webhook-deliverer.service';
import { WebhookDeliveries } from './webhook-deliveries.service';
import { WebhookSecrets } from './webhook-secrets.service';

/**
 * Job callbacks for both apps. Needs the database, configuration and queues registered by
 * the app. Each app subscribes `WebhookDeliveries.recordEnded` to its `JobEvents.onEnded`
 * (this library sits below the jobs library, which checks callback URLs with it at upload).
 */
@Module({
  providers: [WebhookSecrets, WebhookDeliveries, WebhookDeliverer],
  exports: [WebhookSecrets, WebhookDeliveries, WebhookDeliverer],
})
export class WebhooksModule {}
