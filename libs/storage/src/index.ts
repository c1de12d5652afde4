export * from './download-link';
export * from './job-keys';
export * from './local-disk.storage';
export * from './local-file-url';
export * from './s3.storage';
export * from './storage.module';
export * from './storage.port';
