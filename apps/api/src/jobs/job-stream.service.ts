import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import {
  jobEventsChannel,
  JobEvents,
  TERMINAL_STATUSES,
  type DeliveredPage,
  type JobEvent,
  type JobSnapshot,
  type PageDeliveryEvent,
} from '@docconv/lifecycle';
import { pageEventPath, Storage } from '@docconv/storage';
import { REDIS } from '@docconv/redis';
import type { Redis } from 'ioredis';
import { EventEmitter } from 'node:events';
import { Observable } from 'rxjs';

/** One Server-Sent Event: its name, JSON data, and for a delivered page its id (`<attempt>.<seq>`). */
export type StreamEvent =
  { type: 'status' | 'progress'; data: JobSnapshot } | { type: 'page'; data: DeliveredPage; id: string };

/** A page's event id: its attempt and its number in it, so that a retried job's pages are not taken for the first's. */
const pageEventId = (page: DeliveredPage) => `${page.retry}.${page.seq}`;

/** The attempt and page a `Last-Event-ID` names; nothing seen when it names none (or another attempt). */
function lastSeen(lastEventId: string | undefined, retry: number): number {
  const match = /^(\d+)\.(\d+)$/.exec(lastEventId?.trim() ?? '');
  return match && Number(match[1]) === retry ? Number(match[2]) : 0;
}

/**
 * Live job events for `GET /jobs/{id}/events`. Each API replica holds one Redis subscriber on
 * every job's channel and fans the messages out to its own streams, so a stream sees a job's
 * progress whichever process (worker or another replica) changed it.
 */
@Injectable()
export class JobStreamService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(JobStreamService.name);
  private readonly local = new EventEmitter().setMaxListeners(0);
  private subscriber?: Redis;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: JobEvents,
    private readonly storage: Storage,
  ) {}

  async onModuleInit(): Promise<void> {
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true, lazyConnect: false });
    this.subscriber = subscriber;
    subscriber.on('error', (error) => this.logger.warn({ err: error }, 'Job event subscriber cannot reach Redis'));
    subscriber.on('pmessage', (_pattern: string, channel: string, message: string) => {
      try {
        const event = JSON.parse(message) as JobEvent | PageDeliveryEvent;
        this.local.emit(channel, event);
      } catch {
        // a message that is not ours is ignored
      }
    });
    await subscriber.psubscribe(jobEventsChannel(this.config, '*')).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'Job event subscription failed; live progress is unavailable');
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.subscriber?.disconnect();
    await Promise.resolve();
  }

  /**
   * The job's events: its current state first, then the pages its attempt has delivered so far
   * (those after `lastEventId`, the id of the last one a reconnecting client received), then each
   * change and each page as it comes, until it reaches done, error or cancelled, when the stream
   * completes. Pages delivered while the stored ones were read are sent once, in order.
   */
  stream(jobId: string, lastEventId?: string): Observable<StreamEvent> {
    return new Observable<StreamEvent>((subscriber) => {
      const channel = jobEventsChannel(this.config, jobId);
      let finished = false;
      let sent = 0; // the last page sent, by its number in the attempt
      let retry: number | undefined;
      let live: (JobEvent | PageDeliveryEvent)[] | undefined = []; // held until the stored pages are out
      const send = (event: JobEvent | PageDeliveryEvent) => {
        if (finished) return;
        if (event.type === 'page') {
          if (event.page.retry !== retry || event.page.seq <= sent) return;
          sent = event.page.seq;
          subscriber.next({ type: 'page', data: event.page, id: pageEventId(event.page) });
          return;
        }
        if (event.type === 'xlsx_advanced') return;
        subscriber.next({ type: event.type === 'progress' ? 'progress' : 'status', data: event.job });
        if (event.type === 'status' && TERMINAL_STATUSES.has(event.job.status)) {
          finished = true;
          subscriber.complete();
        }
      };
      const listener = (event: JobEvent | PageDeliveryEvent) => (live ? live.push(event) : send(event));
      // Listen first, then read the current state and the stored pages, so nothing between is missed.
      this.local.on(channel, listener);
      this.opening(jobId, lastEventId).then(
        (opening) => {
          if (!opening) return subscriber.complete();
          retry = opening.retry;
          sent = opening.seen;
          const terminal = TERMINAL_STATUSES.has(opening.job.status);
          subscriber.next({ type: 'status', data: opening.job });
          for (const page of opening.pages) send({ type: 'page', page, at: 0 });
          const held = live ?? [];
          live = undefined;
          for (const event of held) send(event);
          if (terminal && !finished) {
            finished = true;
            subscriber.complete();
          }
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => {
        this.local.off(channel, listener);
      };
    });
  }

  /** The job's state, its attempt, the last page the client saw, and the stored pages after it. */
  private async opening(jobId: string, lastEventId: string | undefined) {
    const job = await this.events.snapshot(jobId);
    if (!job) return undefined;
    const { retry, count } = await this.events.deliveredPages(jobId);
    const seen = Math.min(lastSeen(lastEventId, retry), count);
    const pages: DeliveredPage[] = [];
    for (let seq = seen + 1; seq <= count; seq++) {
      pages.push(
        JSON.parse((await this.storage.read(pageEventPath(jobId, retry, seq))).toString('utf8')) as DeliveredPage,
      );
    }
    return { job, retry, seen, pages };
  }
}
