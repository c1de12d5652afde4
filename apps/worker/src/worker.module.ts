import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ConfigModule, type AppConfig } from '@docconv/config';
import { DbModule } from '@docconv/db';
import { QueueModule, RedisModule } from '@docconv/redis';
import { StorageModule } from '@docconv/storage';
import { HandlerRegistry } from './handlers/handler-registry';
import { HeartbeatService } from './maintenance/heartbeat.service';
import { SchedulesService } from './maintenance/schedules.service';
import { MaintenanceProcessor } from './processors/maintenance.processor';

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
        DiscoveryModule,
      ],
      providers: [HandlerRegistry, HeartbeatService, SchedulesService, MaintenanceProcessor],
    };
  }
}
