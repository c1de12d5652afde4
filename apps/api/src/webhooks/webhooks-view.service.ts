import { Injectable } from '@nestjs/common';
import { WebhookDeliveries, WebhookSecrets } from '@docconv/webhooks';
import type { Principal } from '../auth/principal';
import { toDeliveryResponse, type JobWebhooksResponse, type WebhookSecretResponse } from './webhooks.dto';

/** Builds the webhook endpoints' responses from the webhooks library. */
@Injectable()
export class WebhooksViewService {
  constructor(
    private readonly secrets: WebhookSecrets,
    private readonly deliveries: WebhookDeliveries,
  ) {}

  async secret(caller: Principal): Promise<WebhookSecretResponse> {
    return { secret: await this.secrets.current(caller.userId) };
  }

  async rotateSecret(caller: Principal): Promise<WebhookSecretResponse> {
    return { secret: await this.secrets.rotate(caller.userId) };
  }

  async jobDeliveries(caller: Principal, jobId: string): Promise<JobWebhooksResponse> {
    const deliveries = await this.deliveries.forJob(caller.userId, jobId);
    return { job_id: jobId, deliveries: deliveries.map(toDeliveryResponse) };
  }
}
