export * from './conversions.service';
export * from './job-errors';
export * from './jobs.module';
export * from './jobs.service';
export * from './page-report';
export * from './safe-name';
export * from './upload-limits';
export * from './upload.types';
