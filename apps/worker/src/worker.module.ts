import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ConfigModule, type AppConfig } from '@docconv/config';
import { DbModule } from '@docconv/db';
import { JobsModule } from '@docconv/jobs';
import { QueueModule, RedisModule } from '@docconv/redis';
import { StorageModule } from '@docconv/storage';
import { HandlerRegistry } from './handlers/handler-registry';
import { MaintenanceHandler } from './handlers/maintenance.handler';
import { ParseHandler } from './handlers/parse.handler';
import { HeartbeatService } from './maintenance/heartbeat.service';
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
        JobsModule,
        DiscoveryModule,
      ],
      providers: [HandlerRegistry, HeartbeatService, SchedulesService, ParseHandler, MaintenanceHandler, QueueWorkers],
    };
  }
}
