export * from './engine-tokens';
export * from './parse-runner';
export * from './pipeline.module';
export * from './run-extraction';
export * from './xlsx-advanced.runner';
