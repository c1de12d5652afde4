import { Injectable, type OnModuleInit } from '@nestjs/common';
import { JobEvents } from '@docconv/jobs';
import { WebhookDeliveries } from '@docconv/webhooks';

/**
 * Records a webhook delivery whenever this API process ends a job (a cancellation, say).
 * Workers do the same for the ends they cause; the delivery is recorded once either way.
 */
@Injectable()
export class WebhookEventsListener implements OnModuleInit {
  constructor(
    private readonly events: JobEvents,
    private readonly deliveries: WebhookDeliveries,
  ) {}

  onModuleInit(): void {
    this.events.onEnded(async (event) => void (await this.deliveries.recordEnded(event)));
  }
}
