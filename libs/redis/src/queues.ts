import { Injectable, Logger } from '@nestjs/common';
import { InjectFlowProducer, InjectQueue } from '@nestjs/bullmq';
import {
  DEFAULT_JOB_OPTIONS,
  queueJobId,
  queueOf,
  type JobName,
  type JobPayload,
  type QueueName,
} from '@docconv/contracts';
import type { FlowProducer, Queue } from 'bullmq';

/** The flow producer's name in `QueueModule`. */
export const FLOWS = 'flows';

/** One message: a job name, its payload and its priority (as for `Queues.enqueue`). */
export interface Message<N extends JobName> {
  name: N;
  payload: JobPayload<N>;
  priority?: number;
}

/** What the queue holds of one message: still to run (waiting, delayed or active), failed for good, done, or nothing. */
export type MessageState = 'pending' | 'failed' | 'completed' | 'missing';

/**
 * The one way messages reach the queues: typed by job name, on the queue the contract names,
 * with the id its payload gives (so sending twice queues once) and the contract's delivery
 * options (set on the queues by `QueueModule`).
 */
@Injectable()
export class Queues {
  private readonly logger = new Logger(Queues.name);
  private readonly queues: Record<QueueName, Queue>;
  private lastErrorLoggedAt = 0;

  constructor(
    @InjectQueue('parse') parse: Queue,
    @InjectQueue('office') office: Queue,
    @InjectQueue('speech') speech: Queue,
    @InjectQueue('conversions') conversions: Queue,
    @InjectQueue('maintenance') maintenance: Queue,
    @InjectQueue('webhooks') webhooks: Queue,
    @InjectFlowProducer(FLOWS) private readonly flows: FlowProducer,
  ) {
    this.queues = { parse, office, speech, conversions, maintenance, webhooks };
    // Without a listener BullMQ prints every failed reconnect while Redis is away; once a minute is enough.
    for (const queue of Object.values(this.queues)) queue.on('error', (error) => this.reportError(error));
    flows.on('error', (error) => this.reportError(error));
  }

  /** Every queue of the contract, in its order: for the operator's views (metrics, the queue view). */
  all(): Queue[] {
    return Object.values(this.queues);
  }

  private reportError(error: Error): void {
    if (Date.now() - this.lastErrorLoggedAt < 60_000) return;
    this.lastErrorLoggedAt = Date.now();
    this.logger.warn({ err: error }, 'The queues cannot reach Redis; messages wait in the outbox until they can');
  }

  /** `priority`: 1 goes first; a larger number waits behind smaller ones (see JobLifecycle's fairness). */
  async enqueue<N extends JobName>(
    name: N,
    payload: JobPayload<N>,
    options: { delayMs?: number; priority?: number } = {},
  ): Promise<void> {
    const queue = this.queues[queueOf(name)];
    await queue.add(name, payload, {
      jobId: queueJobId(name, payload),
      delay: options.delayMs,
      priority: options.priority,
    });
  }

  /**
   * Sends `children` and the `parent` that runs once every one of them has ended, as one BullMQ
   * flow (all or nothing), each with the id its payload gives and the contract's delivery
   * options. A child that fails for good still lets the parent run, which finds its result
   * missing.
   */
  async fanOut<P extends JobName, C extends JobName>(parent: Message<P>, children: Message<C>[]): Promise<void> {
    const opts = (message: Message<JobName>) => ({
      ...DEFAULT_JOB_OPTIONS,
      jobId: queueJobId(message.name, message.payload),
      priority: message.priority,
    });
    await this.flows.add({
      name: parent.name,
      queueName: queueOf(parent.name),
      data: parent.payload,
      opts: opts(parent),
      children: children.map((child) => ({
        name: child.name,
        queueName: queueOf(child.name),
        data: child.payload,
        opts: { ...opts(child), ignoreDependencyOnFailure: true },
      })),
    });
  }

  /** How many worker processes take messages from `queue` now (each worker's connection, as Redis lists it). */
  workersOn(queue: QueueName): Promise<number> {
    return this.queues[queue].getWorkersCount();
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

  /**
   * Sends the message again unless the queue holds it still to run (a finished or failed copy
   * is removed first, so its id is free); true when it was sent. `known`: its state, if the
   * caller has just asked for it.
   */
  async resend<N extends JobName>(name: N, payload: JobPayload<N>, known?: MessageState): Promise<boolean> {
    const state = known ?? (await this.state(name, payload));
    if (state === 'pending') return false;
    const id = queueJobId(name, payload);
    if (state !== 'missing' && id !== undefined) await this.queues[queueOf(name)].remove(id);
    await this.enqueue(name, payload);
    return true;
  }
}
