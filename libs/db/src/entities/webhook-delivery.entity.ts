import { Column, Entity, PrimaryColumn } from 'typeorm';

export const WEBHOOK_EVENT_TYPES = [
  'job.done',
  'job.error',
  'job.cancelled',
  'xlsx_advanced.done',
  'xlsx_advanced.error',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * One event of a job to be sent to its callback URL, and how sending it has gone. Its id is
 * also the event's id and the BullMQ job id's stem, so each event is recorded and sent once.
 */
@Entity({ name: 'webhook_deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'job_id', type: 'uuid' }) jobId!: string;
  @Column({ name: 'event_type', type: 'text' }) eventType!: WebhookEventType;
  /** Which end of the job this is: `attempt-<retry_count>` or `xlsx-run-<n>`. */
  @Column({ type: 'text' }) occurrence!: string;
  /** The job's callback URL when the event happened. */
  @Column({ type: 'text' }) url!: string;
  /** The event as it is sent. */
  @Column({ type: 'json' }) payload!: Record<string, unknown>;
  @Column({ type: 'integer' }) attempts!: number;
  @Column({ name: 'last_status_code', type: 'integer', nullable: true }) lastStatusCode!: number | null;
  @Column({ name: 'last_error', type: 'text', nullable: true }) lastError!: string | null;
  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true }) lastAttemptAt!: Date | null;
  /** When the next attempt is due; null once delivered or given up. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true }) nextAttemptAt!: Date | null;
  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true }) deliveredAt!: Date | null;
  /** Set when retries ran out (24 hours after the event) without a 2xx answer. */
  @Column({ name: 'gave_up_at', type: 'timestamptz', nullable: true }) gaveUpAt!: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
