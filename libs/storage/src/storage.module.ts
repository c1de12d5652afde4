import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { LocalDiskStorage } from './local-disk.storage';
import { Storage } from './storage.port';

@Global()
@Module({
  providers: [
    {
      provide: Storage,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): Storage => new LocalDiskStorage(config.storage.localDir),
    },
  ],
  exports: [Storage],
})
export class StorageModule {}
