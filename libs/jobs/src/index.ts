export * from './conversions.service';
export * from './job-document';
export * from './job-errors';
export * from './job-summary';
export * from './jobs.module';
export * from './jobs.service';
export * from './page-report';
export * from './safe-name';
export * from './upload-limits';
export * from './upload.types';
/** The keys API code imported from here before they moved to `@docconv/storage` (job-keys.ts), which owns them. */
export { conversionPath, pageReportPath, resultFilePath, structuredResultPath } from '@docconv/storage';
