export * from './test-stack';
