import { Injectable } from '@nestjs/common';
import type { JobPayload } from '@docconv/contracts';
import { WebhookDeliverer, type DeliveryOutcome } from '@docconv/webhooks';
import { JobHandler } from './job-handler.decorator';

/** The worker's side of job callbacks: the delivery attempts (the deliveries are recorded as jobs end). */
@Injectable()
export class WebhookHandler {
  constructor(private readonly deliverer: WebhookDeliverer) {}

  @JobHandler('webhook.deliver')
  deliver(payload: JobPayload<'webhook.deliver'>): Promise<DeliveryOutcome> {
    return this.deliverer.deliver(payload);
  }
}
