export * from './engine-tokens';
export * from './page-ranges';
export * from './parse-runner';
export * from './pipeline.module';
export * from './extraction-pool';
export * from './xlsx-advanced.runner';
