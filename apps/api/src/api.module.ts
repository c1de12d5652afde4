import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ConfigModule, type AppConfig } from '@docconv/config';
import { DbModule } from '@docconv/db';
import { RedisModule } from '@docconv/redis';
import { StorageModule } from '@docconv/storage';
import { AccessGuard } from './auth/access.guard';
import { ProblemFilter } from './errors/problem.filter';
import { HealthModule } from './health/health.module';

@Module({})
export class ApiModule {
  static forRoot(config: AppConfig, extraModules: Type[] = []): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        ConfigModule.forRoot(config),
        DbModule.forRoot(),
        RedisModule,
        StorageModule,
        HealthModule,
        ...extraModules,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ProblemFilter },
        { provide: APP_GUARD, useClass: AccessGuard },
      ],
    };
  }
}
