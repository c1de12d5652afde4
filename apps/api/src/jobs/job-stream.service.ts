import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { jobEventsChannel, JobEvents, TERMINAL_STATUSES, type JobEvent, type JobSnapshot } from '@docconv/lifecycle';
import { REDIS } from '@docconv/redis';
import type { Redis } from 'ioredis';
import { EventEmitter } from 'node:events';
import { Observable } from 'rxjs';

/** One Server-Sent Event: its name and JSON data. */
export interface StreamEvent {
  type: 'status' | 'progress';
  data: JobSnapshot;
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
  ) {}

  async onModuleInit(): Promise<void> {
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true, lazyConnect: false });
    this.subscriber = subscriber;
    subscriber.on('error', (error) => this.logger.warn({ err: error }, 'Job event subscriber cannot reach Redis'));
    subscriber.on('pmessage', (_pattern: string, channel: string, message: string) => {
      try {
        const event = JSON.parse(message) as JobEvent;
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
   * The job's events: its current state first, then each change, until it reaches done, error
   * or cancelled, when the stream completes.
   */
  stream(jobId: string): Observable<StreamEvent> {
    return new Observable<StreamEvent>((subscriber) => {
      const channel = jobEventsChannel(this.config, jobId);
      let finished = false;
      const send = (type: StreamEvent['type'], job: JobSnapshot) => {
        if (finished) return;
        subscriber.next({ type, data: job });
        if (type === 'status' && TERMINAL_STATUSES.has(job.status)) {
          finished = true;
          subscriber.complete();
        }
      };
      const listener = (event: JobEvent) => {
        if (event.type === 'xlsx_advanced') return;
        send(event.type === 'progress' ? 'progress' : 'status', event.job);
      };
      // Listen first, then read the current state, so nothing between the two is missed.
      this.local.on(channel, listener);
      this.events.snapshot(jobId).then(
        (job) => job && send('status', job),
        (error: unknown) => subscriber.error(error),
      );
      return () => {
        this.local.off(channel, listener);
      };
    });
  }
}
