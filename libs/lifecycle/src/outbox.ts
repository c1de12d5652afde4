import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { JobName, JobPayload } from '@docconv/contracts';
import { Queues } from '@docconv/redis';
import { DataSource, type EntityManager } from 'typeorm';
import { JobEvents } from './job-events';
import type { EventKind } from './transitions';

/** What a state change has to tell the rest of the system once it is committed. */
export type OutboxMessage =
  | { kind: 'event'; jobId: string; type: EventKind }
  | { [N in JobName]: { kind: 'enqueue'; name: N; payload: JobPayload<N>; priority?: number } }[JobName];

/** A message not sent this long after its commit is sent by the sweep. */
const SWEEP_AFTER_SECONDS = 10;

/**
 * The transactional outbox: a state change writes its messages (job events, queue messages)
 * with the same transaction, and they are sent after the commit; a message whose sending
 * failed (Redis away, the process gone) stays in the table until the sweep sends it. Sending
 * is at least once: queue messages carry ids, so a second send queues nothing.
 */
@Injectable()
export class Outbox {
  private readonly logger = new Logger(Outbox.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queues: Queues,
    private readonly events: JobEvents,
  ) {}

  /** Writes `message` with `m`; returns its id, to send once `m` commits. */
  async write(m: EntityManager, message: OutboxMessage): Promise<string> {
    const [row] = await m.query<{ id: string }[]>('INSERT INTO outbox (message) VALUES ($1::jsonb) RETURNING id', [
      JSON.stringify(message),
    ]);
    return row.id;
  }

  /** Sends the committed messages `ids`, in order; one that cannot be sent now is left for the sweep. */
  async send(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const rows = await this.dataSource.query<{ id: string; message: OutboxMessage }[]>(
      'SELECT id, message FROM outbox WHERE id = ANY($1) ORDER BY id',
      [ids],
    );
    await this.sendRows(rows);
  }

  /** Sends every message left unsent for a while; returns how many went out. */
  async sendLeftovers(): Promise<{ sent: number }> {
    const rows = await this.dataSource.query<{ id: string; message: OutboxMessage }[]>(
      `SELECT id, message FROM outbox WHERE created_at < now() - make_interval(secs => $1) ORDER BY id LIMIT 500`,
      [SWEEP_AFTER_SECONDS],
    );
    const sent = await this.sendRows(rows);
    if (sent > 0) this.logger.warn({ sent }, 'Sent outbox messages left unsent after their commit');
    return { sent };
  }

  private async sendRows(rows: { id: string; message: OutboxMessage }[]): Promise<number> {
    let sent = 0;
    for (const { id, message } of rows) {
      try {
        if (message.kind === 'event') await this.events.announce(message.jobId, message.type);
        else await this.queues.enqueue(message.name, message.payload, { priority: message.priority });
        await this.dataSource.query('DELETE FROM outbox WHERE id = $1', [id]);
        sent++;
      } catch (error) {
        this.logger.warn({ err: error, outbox_id: id, message }, 'Outbox message not sent yet; the sweep sends it');
        return sent; // keep the order: the rest waits for the sweep too
      }
    }
    return sent;
  }
}
