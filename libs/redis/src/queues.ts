import { Injectable } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { queueJobId, queueOf, type JobName, type JobPayload, type QueueName } from '@docconv/contracts';
import type { Queue } from 'bullmq';

/** What the queue holds of one message: still to run (waiting, delayed or active), failed for good, done, or nothing. */
export type MessageState = 'pending' | 'failed' | 'completed' | 'missing';

/**
 * The one way messages reach the queues: typed by job name, on the queue the contract names,
 * with the id its payload gives (so sending twice queues once) and the contract's delivery
 * options (set on the queues by `QueueModule`).
 */
@Injectable()
export class Queues {
  private readonly queues: Record<QueueName, Queue>;

  constructor(
    @InjectQueue('parse') parse: Queue,
    @InjectQueue('conversions') conversions: Queue,
    @InjectQueue('maintenance') maintenance: Queue,
    @InjectQueue('webhooks') webhooks: Queue,
  ) {
    this.queues = { parse, conversions, maintenance, webhooks };
  }

  async enqueue<N extends JobName>(name: N, payload: JobPayload<N>, options: { delayMs?: number } = {}): Promise<void> {
    await this.queues[queueOf(name)].add(name, payload, {
      jobId: queueJobId(name, payload),
      delay: options.delayMs,
    });
  }

  /** Where the message `enqueue(name, payload)` sends stands in the queue. */
  async state<N extends JobName>(name: N, payload: JobPayload<N>): Promise<MessageState> {
    const id = queueJobId(name, payload);
    const job = id === undefined ? undefined : await this.queues[queueOf(name)].getJob(id);
    if (!job) return 'missing';
    if (await job.isFailed()) return 'failed';
    if (await job.isCompleted()) return 'completed';
    return 'pending';
  }

  /** Removes a finished message so the same one can be sent again. */
  async forget<N extends JobName>(name: N, payload: JobPayload<N>): Promise<void> {
    const id = queueJobId(name, payload);
    if (id !== undefined) await this.queues[queueOf(name)].remove(id);
  }
}
