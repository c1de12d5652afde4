import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from './app-config';

/** Injection token for the validated configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');

/**
 * Makes the configuration validated at boot available everywhere. It never reads the
 * environment itself: `main.ts` calls `loadConfig()` first and passes the result in.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}
