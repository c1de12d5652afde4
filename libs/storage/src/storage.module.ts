import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { LocalDiskStorage } from './local-disk.storage';
import { S3Storage } from './s3.storage';
import { Storage } from './storage.port';

/** The store `STORAGE_DRIVER` names: files on local disk, or an S3-compatible bucket. */
export function createStorage(config: AppConfig): Storage {
  const { storage } = config;
  switch (storage.driver) {
    case 'local':
      return new LocalDiskStorage(storage.localDir, {
        secret: storage.fileUrlSecret,
        defaultTtlSeconds: storage.signedUrlTtlSeconds,
        publicBaseUrl: config.publicBaseUrl,
      });
    case 's3':
      if (!storage.s3) throw new Error('STORAGE_DRIVER is s3 but the S3 settings are missing');
      return new S3Storage(storage.s3, storage.signedUrlTtlSeconds);
  }
}

@Global()
@Module({
  providers: [{ provide: Storage, inject: [APP_CONFIG], useFactory: createStorage }],
  exports: [Storage],
})
export class StorageModule {}
