export * from './conversion-metrics';
export * from './metrics.module';
export * from './registry';
