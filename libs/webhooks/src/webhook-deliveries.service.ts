import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainError } from '@docconv/contracts';
import { JobEntity, WebhookDeliveryEntity } from '@docconv/db';
import { Queues } from '@docconv/redis';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { endedEvent, webhookPayload, type EndedKind } from './webhook-event';

/** A delivery whose attempt has been due this long without the queue holding it is sent again. */
const RESEND_AFTER_SECONDS = 30;

/**
 * Job callbacks as rows: the delivery an end stands for, recorded in the transaction that
 * ends the job (so an end and its delivery are committed together, or neither is), the
 * deliveries of a job, and the deliveries whose queue messages were lost.
 */
@Injectable()
export class WebhookDeliveries {
  private readonly logger = new Logger(WebhookDeliveries.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queues: Queues,
  ) {}

  /**
   * Records, with `m`, the delivery of the event `job`'s state stands for, when the job has a
   * callback URL. Idempotent per event (a unique key and ON CONFLICT DO NOTHING). Returns the
   * new delivery's id, whose first attempt the caller sends once `m` commits, or null.
   */
  async record(m: EntityManager, kind: EndedKind, job: JobEntity): Promise<string | null> {
    if (!job.callbackUrl) return null;
    const event = endedEvent(kind, job);
    if (!event) return null;
    const id = randomUUID();
    const at = new Date();
    const inserted = await m.query<{ id: string }[]>(
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
    this.logger.log({ job_id: job.id, delivery_id: id, event: event.type }, 'Webhook delivery recorded');
    return id;
  }

  /**
   * Sends again the next attempt of every delivery that is due, not finished, and not held by
   * the queue (Redis lost it, or stopped between the commit and the send). The deliverer skips
   * an attempt that was already made, so a message sent twice is delivered once.
   */
  async resendLost(): Promise<{ resent: number }> {
    const due = await this.dataSource.query<{ id: string; attempts: number }[]>(
      `SELECT id, attempts FROM webhook_deliveries
        WHERE delivered_at IS NULL AND gave_up_at IS NULL
          AND next_attempt_at < now() - make_interval(secs => $1)
        ORDER BY next_attempt_at LIMIT 500`,
      [RESEND_AFTER_SECONDS],
    );
    let resent = 0;
    for (const delivery of due) {
      const message = { deliveryId: delivery.id, attempt: delivery.attempts + 1 };
      if (await this.queues.resend('webhook.deliver', message)) resent++;
    }
    if (resent > 0) this.logger.warn({ resent }, 'Re-sent webhook deliveries the queue did not hold');
    return { resent };
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
