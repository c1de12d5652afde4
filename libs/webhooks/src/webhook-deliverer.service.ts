import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import type { JobPayload } from '@docconv/contracts';
import { Queues } from '@docconv/redis';
import { DataSource } from 'typeorm';
import { nextAttemptAt } from './retry-schedule';
import { isDelivered, sendWebhook, type SendResult } from './webhook-sender';
import { WebhookSecrets } from './webhook-secrets.service';
import { SIGNATURE_HEADER, signatureHeader } from './webhook-signature';

export type DeliveryOutcome = 'delivered' | 'retrying' | 'gave_up' | 'skipped';

interface DueDelivery {
  id: string;
  url: string;
  event_type: string;
  /** The payload exactly as stored, so every attempt sends the same bytes. */
  body: string;
  attempts: number;
  created_at: Date;
  delivered_at: Date | null;
  gave_up_at: Date | null;
  user_id: string;
}

/**
 * One attempt at a delivery, in the worker. A receiver that does not answer 2xx is an outcome,
 * not a fault of ours: the attempt is recorded and the next one queued after the backoff
 * (10 s, 30 s, 1.5 min… at most an hour apart) until 24 hours after the event, when the
 * delivery is given up. Only our own faults (database, Redis) are thrown, so the queue retries
 * the attempt; a receiver may then see it twice and can tell by `Docconv-Delivery`.
 */
@Injectable()
export class WebhookDeliverer {
  private readonly logger = new Logger(WebhookDeliverer.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queues: Queues,
    private readonly secrets: WebhookSecrets,
  ) {}

  async deliver({ deliveryId, attempt }: JobPayload<'webhook.deliver'>): Promise<DeliveryOutcome> {
    const delivery = await this.load(deliveryId);
    // Delivered, given up, or this attempt already made: nothing to send.
    if (!delivery || delivery.delivered_at || delivery.gave_up_at || delivery.attempts >= attempt) return 'skipped';

    const result = await this.send(delivery);
    const now = new Date();
    if (isDelivered(result)) {
      await this.record(delivery.id, attempt, result, now, { delivered_at: now, next_attempt_at: null });
      return 'delivered';
    }
    const next = nextAttemptAt(delivery.created_at, attempt, this.config.webhooks.retryBaseMs, now);
    if (next === null) {
      this.logger.warn({ delivery_id: delivery.id, attempts: attempt }, 'Webhook delivery given up');
      await this.record(delivery.id, attempt, result, now, { gave_up_at: now, next_attempt_at: null });
      return 'gave_up';
    }
    // Queued before it is recorded: if recording fails, the queue retries this attempt, and the next is already due.
    await this.queues.enqueue(
      'webhook.deliver',
      { deliveryId: delivery.id, attempt: attempt + 1 },
      { delayMs: next.getTime() - now.getTime() },
    );
    await this.record(delivery.id, attempt, result, now, { next_attempt_at: next });
    return 'retrying';
  }

  private async load(deliveryId: string): Promise<DueDelivery | undefined> {
    const [row] = await this.dataSource.query<DueDelivery[]>(
      `SELECT d.id, d.url, d.event_type, d.payload::text AS body, d.attempts, d.created_at, d.delivered_at,
              d.gave_up_at, j.user_id
         FROM webhook_deliveries d JOIN jobs j ON j.id = d.job_id
        WHERE d.id = $1`,
      [deliveryId],
    );
    return row;
  }

  /** Signs with the user's current secret at the moment of sending, then POSTs. */
  private async send(delivery: DueDelivery): Promise<SendResult> {
    const secret = await this.secrets.current(delivery.user_id);
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'docconv-webhooks/1',
      'Docconv-Event': delivery.event_type,
      'Docconv-Delivery': delivery.id,
      [SIGNATURE_HEADER]: signatureHeader(secret, delivery.body, Math.floor(Date.now() / 1000)),
    };
    return sendWebhook({ url: delivery.url, body: delivery.body, headers }, this.config.webhooks);
  }

  /** Records attempt number `attempt` and its outcome, unless a later attempt was recorded already. */
  private async record(
    id: string,
    attempt: number,
    result: SendResult,
    at: Date,
    outcome: { delivered_at?: Date; gave_up_at?: Date; next_attempt_at: Date | null },
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_deliveries
          SET attempts = $2, last_status_code = $3, last_error = $4, last_attempt_at = $5,
              delivered_at = $6, gave_up_at = $7, next_attempt_at = $8
        WHERE id = $1 AND attempts < $2 AND delivered_at IS NULL AND gave_up_at IS NULL`,
      [
        id,
        attempt,
        result.statusCode,
        isDelivered(result) ? null : failureMessage(result),
        at,
        outcome.delivered_at ?? null,
        outcome.gave_up_at ?? null,
        outcome.next_attempt_at,
      ],
    );
  }
}

/** What `last_error` says about a failed attempt. */
function failureMessage(result: SendResult): string {
  if (result.statusCode === null) return result.error;
  const redirect = result.statusCode >= 300 && result.statusCode < 400 ? ' (redirects are not followed)' : '';
  return `The receiver answered ${result.statusCode}${redirect}.`;
}
