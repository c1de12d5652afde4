import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ConfigModule, type AppConfig } from '@docconv/config';
import { DbModule } from '@docconv/db';
import { MetricsModule } from '@docconv/metrics';
import { PipelineModule } from '@docconv/pipeline';
import { QueueModule, RedisModule } from '@docconv/redis';
import { StorageModule } from '@docconv/storage';
import { WebhooksModule } from '@docconv/webhooks';
import { EnginesModule } from './engines/engines.module';
import { EnginesService } from './engines/engines.service';
import { ConversionHandler } from './handlers/conversion.handler';
import { HandlerRegistry } from './handlers/handler-registry';
import { MaintenanceHandler } from './handlers/maintenance.handler';
import { ParseHandler } from './handlers/parse.handler';
import { WebhookHandler } from './handlers/webhook.handler';
import { HeartbeatService } from './maintenance/heartbeat.service';
import { MetricsServer } from './metrics/metrics-server';
import { SchedulesService } from './maintenance/schedules.service';
import { QueueWorkers } from './processors/queue-workers.service';

@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        DbModule.forRoot(),
        RedisModule,
        QueueModule.forRoot(),
        StorageModule,
        PipelineModule,
        DiscoveryModule,
        EnginesModule,
        WebhooksModule,
        MetricsModule,
      ],
      providers: [
        HandlerRegistry,
        HeartbeatService,
        EnginesService,
        SchedulesService,
        ParseHandler,
        ConversionHandler,
        MaintenanceHandler,
        WebhookHandler,
        QueueWorkers,
        MetricsServer,
      ],
    };
  }
}
