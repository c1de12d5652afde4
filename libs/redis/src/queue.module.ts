import { Module, type DynamicModule } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { DEFAULT_JOB_OPTIONS, QUEUE_NAMES } from '@docconv/contracts';
import { FLOWS, Queues } from './queues';
import { queueProducerConnectionOptions } from './redis.module';

/** Where BullMQ keeps its keys: under the deployment's prefix, so runs and deployments never share queues. */
export function queuePrefix(config: AppConfig): string {
  return `${config.redis.prefix}:bull`;
}

/** BullMQ on the configured Redis, with every queue of the contract registered and `Queues` to send to them. */
@Module({})
export class QueueModule {
  static forRoot(): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: [
        BullModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => ({
            connection: queueProducerConnectionOptions(config.redis.url),
            prefix: queuePrefix(config),
            defaultJobOptions: DEFAULT_JOB_OPTIONS,
          }),
        }),
        BullModule.registerQueue(...QUEUE_NAMES.map((name) => ({ name }))),
        // Closed as the queues are: its forced disconnect first waits for a connection, forever while Redis is away.
        BullModule.registerFlowProducer({ name: FLOWS, forceDisconnectOnShutdown: false }),
      ],
      providers: [Queues],
      exports: [BullModule, Queues],
    };
  }
}
