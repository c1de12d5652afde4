import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES, type WebhookDeliveryEntity } from '@docconv/db';
import { wireTime } from '../common/wire';

/** How a delivery stands: still being tried, answered 2xx, or given up after 24 hours. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** What a receiver gets and how to check it, for the API's documentation. */
export const WEBHOOK_DOCUMENTATION =
  'When a job has a `callback_url`, its end (`job.done`, `job.error`, `job.cancelled`) and the end of each XLSX ' +
  'Advanced run (`xlsx_advanced.done`, `xlsx_advanced.error`) are POSTed there once as JSON ' +
  '`{ id, type, created_at, data: { job } }`, with the headers `Docconv-Event: <type>`, `Docconv-Delivery: <id>` and ' +
  '`Docconv-Signature: t=<unix seconds>,v1=<hex>`, where v1 is the HMAC-SHA256, keyed with your webhook secret ' +
  '(`GET /account/webhook-secret`), of `<t>.<raw body>`. Any 2xx answer within 10 s delivers it; otherwise it is ' +
  'retried after 10 s, 30 s, 1.5 min… (at most an hour apart) for 24 hours. Redirects are not followed.';

export class WebhookSecretResponse {
  @ApiProperty({
    example: 'whsec_3q2-7wFh0x0mZr8Cj1mFz6zQK9xU3p5r8r7b0bYtS1E',
    description: 'The HMAC-SHA256 key (the whole string, UTF-8) of `Docconv-Signature`.',
  })
  secret!: string;
}

export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid', description: 'The event’s id; also sent as `Docconv-Delivery`.' }) id!: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES }) event_type!: string;
  @ApiProperty({ description: 'The callback URL it is sent to.' }) url!: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'], description: 'failed: given up 24 hours after the event.' })
  status!: DeliveryStatus;
  @ApiProperty({ description: 'Attempts made so far.' }) attempts!: number;
  @ApiProperty({ nullable: true, type: Number, description: 'HTTP status of the last answer; null without one.' })
  last_status_code!: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'Why the last attempt failed.' })
  last_error!: string | null;
  @ApiProperty({ nullable: true, type: String }) last_attempt_at!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'When the next attempt is due; null once settled.' })
  next_attempt_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) delivered_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) gave_up_at!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The event body, as sent.' })
  payload!: Record<string, unknown>;
}

export class JobWebhooksResponse {
  @ApiProperty({ format: 'uuid' }) job_id!: string;
  @ApiProperty({ type: WebhookDeliveryResponse, isArray: true, description: 'Oldest first.' })
  deliveries!: WebhookDeliveryResponse[];
}

export function toDeliveryResponse(d: WebhookDeliveryEntity): WebhookDeliveryResponse {
  return {
    id: d.id,
    event_type: d.eventType,
    url: d.url,
    status: d.deliveredAt ? 'delivered' : d.gaveUpAt ? 'failed' : 'pending',
    attempts: d.attempts,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    last_attempt_at: wireTime(d.lastAttemptAt),
    next_attempt_at: wireTime(d.nextAttemptAt),
    delivered_at: wireTime(d.deliveredAt),
    gave_up_at: wireTime(d.gaveUpAt),
    created_at: wireTime(d.createdAt),
    payload: d.payload,
  };
}
