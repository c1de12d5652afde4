import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { METRIC_PREFIX, MetricsRegistry } from '@docconv/metrics';
import { Queues } from '@docconv/redis';
import type { Queue } from 'bullmq';
import { Gauge, Histogram } from 'prom-client';
import { DataSource } from 'typeorm';

/** The queue states counted per queue (BullMQ's names). */
const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'waiting-children', 'failed'] as const;

/** Buckets for an API request's seconds: most answer in milliseconds, uploads take longer. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * What the API's `GET /metrics` adds to Node's own figures: queue depths per queue and state,
 * the ledger's totals per transaction type beside the sum of balances (read when scraped), and a
 * latency histogram of every request by route template, so that cardinality stays bounded.
 */
@Injectable()
export class OperatorMetrics {
  readonly queues: Queue[];
  private readonly httpSeconds: Histogram<'method' | 'route' | 'status'>;

  constructor(registry: MetricsRegistry, queueSet: Queues, @InjectDataSource() dataSource: DataSource) {
    const registers = [registry.registry];
    const queues = queueSet.all();
    this.queues = queues;
    new Gauge({
      name: `${METRIC_PREFIX}queue_jobs`,
      help: 'Queue entries per queue and state (waiting and prioritized wait for a worker).',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        for (const queue of queues) {
          const counts = await queue.getJobCounts(...QUEUE_STATES);
          for (const state of QUEUE_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
        }
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}ledger_points`,
      help: 'Sum of the credit ledger’s points per transaction type (charge, spend, refund, grant).',
      labelNames: ['type'],
      registers,
      async collect() {
        const rows = await dataSource.query<{ type: string; points: string }[]>(
          'SELECT type, COALESCE(SUM(amount), 0)::text AS points FROM credit_transactions GROUP BY type',
        );
        for (const row of rows) this.set({ type: row.type }, Number(row.points));
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}balance_points`,
      help: 'Sum of every user’s balance; equals the sum of ledger_points over its types.',
      registers,
      async collect() {
        const [row] = await dataSource.query<{ points: string }[]>(
          'SELECT COALESCE(SUM(points_balance), 0)::text AS points FROM users',
        );
        this.set(Number(row.points));
      },
    });
    this.httpSeconds = new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'Seconds from a request’s arrival to its answer, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    });
  }

  /** One answered request; `route` is its template (`/api/v1/jobs/:job_id`), or `unmatched`. */
  request(method: string, route: string | undefined, status: number, milliseconds: number): void {
    this.httpSeconds.observe({ method, route: route ?? 'unmatched', status: String(status) }, milliseconds / 1000);
  }
}
