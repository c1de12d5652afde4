import { Injectable, Logger } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainError, webhookQueueJobId, type JobPayload } from '@docconv/contracts';
import { JobEntity, WebhookDeliveryEntity } from '@docconv/db';
import type { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { endedEvent, webhookPayload } from './webhook-event';

/** The part of a `JobEvents` end announcement this service reads: what ended, and for which job. */
export interface EndAnnouncement {
  type: string;
  job: { job_id: string };
}

/**
 * Turns the end of a job, or of one of its XLSX Advanced runs, into a delivery to the job's
 * callback URL, and lists a job's deliveries. Recording is idempotent per event (a unique
 * key and ON CONFLICT DO NOTHING), so every process that hears of an end may record it and
 * exactly one delivery results; only the process whose row was inserted queues the send.
 */
@Injectable()
export class WebhookDeliveries {
  private readonly logger = new Logger(WebhookDeliveries.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectQueue('webhooks') private readonly queue: Queue<JobPayload<'webhook.deliver'>>,
  ) {}

  /**
   * Records the event the job's stored state stands for, when the job has a callback URL,
   * and queues its first attempt. Returns the delivery's id, or null when nothing new was
   * recorded (no callback, no ended state, or another process recorded it first).
   */
  async recordEnded(announcement: EndAnnouncement): Promise<string | null> {
    if (announcement.type !== 'status' && announcement.type !== 'xlsx_advanced') return null;
    const job = await this.dataSource.getRepository(JobEntity).findOneBy({ id: announcement.job.job_id });
    if (!job?.callbackUrl) return null;
    const event = endedEvent(announcement.type, job);
    if (!event) return null;

    const id = randomUUID();
    const at = new Date();
    const inserted = await this.dataSource.query<{ id: string }[]>(
      `INSERT INTO webhook_deliveries (id, job_id, event_type, occurrence, url, payload, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6::json, $7, $7)
       ON CONFLICT (job_id, event_type, occurrence) DO NOTHING
       RETURNING id`,
      [
        id,
        job.id,
        event.type,
        event.occurrence,
        job.callbackUrl,
        JSON.stringify(webhookPayload(id, event.type, job, at)),
        at,
      ],
    );
    if (inserted.length === 0) return null;
    await this.queue.add('webhook.deliver', { deliveryId: id, attempt: 1 }, { jobId: webhookQueueJobId(id, 1) });
    this.logger.log({ job_id: job.id, delivery_id: id, event: event.type }, 'Webhook delivery recorded');
    return id;
  }

  /** The deliveries of one of the user's jobs, oldest first; 404 when the job is not theirs. */
  async forJob(userId: string, jobId: string): Promise<WebhookDeliveryEntity[]> {
    const owned = await this.dataSource.getRepository(JobEntity).existsBy({ id: jobId, userId });
    if (!owned) throw new DomainError('job_not_found', `No job ${jobId} belongs to this account.`);
    return this.dataSource
      .getRepository(WebhookDeliveryEntity)
      .find({ where: { jobId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }
}
