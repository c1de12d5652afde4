export * from './job-errors';
export * from './jobs.module';
export * from './jobs.service';
export * from './safe-name';
export * from './upload.types';
export * from './maintenance.service';
export * from './parse-runner';
