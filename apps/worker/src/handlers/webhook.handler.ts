import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { JobPayload } from '@docconv/contracts';
import { JobEvents } from '@docconv/jobs';
import { WebhookDeliverer, WebhookDeliveries, type DeliveryOutcome } from '@docconv/webhooks';
import { JobHandler } from './job-handler.decorator';

/**
 * The worker's side of job callbacks: it records a delivery for every end it causes (a job
 * done or failed, an XLSX Advanced run finished) and makes the delivery attempts.
 */
@Injectable()
export class WebhookHandler implements OnModuleInit {
  constructor(
    private readonly events: JobEvents,
    private readonly deliveries: WebhookDeliveries,
    private readonly deliverer: WebhookDeliverer,
  ) {}

  onModuleInit(): void {
    this.events.onEnded(async (event) => void (await this.deliveries.recordEnded(event)));
  }

  @JobHandler('webhook.deliver')
  deliver(payload: JobPayload<'webhook.deliver'>): Promise<DeliveryOutcome> {
    return this.deliverer.deliver(payload);
  }
}
