import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';

/** Every metric family's name starts with this. */
export const METRIC_PREFIX = 'docconv_';

/**
 * The process's Prometheus registry: Node's own figures (CPU, memory, event-loop lag, GC) and
 * every family the process's services register on it. One per process; read by `GET /metrics`.
 */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: METRIC_PREFIX });
  }

  /** The media type of `exposition()`. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every family in Prometheus's text exposition format (collectors run now). */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }
}
