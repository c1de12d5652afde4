import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { MetricsRegistry } from '@docconv/metrics';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The worker's own Prometheus endpoint: `GET /metrics` on `WORKER_METRICS_PORT` (off while it is
 * unset), every address of the host. It carries no credential, as is usual for a scrape port:
 * keep the port inside the cluster. Each worker process serves its own figures.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsServer.name);
  private server?: Server;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.operator.workerMetricsPort;
    if (port === null) return;
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
        response
          .writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
          .end('Only GET /metrics is served here.\n');
        return;
      }
      this.metrics.exposition().then(
        (text) => response.writeHead(200, { 'Content-Type': this.metrics.contentType }).end(text),
        (error: unknown) => {
          this.logger.error({ err: error }, 'Metrics could not be collected');
          response
            .writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
            .end('Metrics could not be collected.\n');
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'EADDRINUSE'
            ? new Error(`WORKER_METRICS_PORT ${port} is in use: give each worker on this host a port of its own`)
            : error,
        ),
      );
      server.listen(port, () => resolve());
    });
    server.unref();
    this.server = server;
    this.logger.log(`Worker metrics at http://0.0.0.0:${(server.address() as AddressInfo).port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
