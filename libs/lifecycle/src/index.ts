export * from './job-events';
export * from './job-lifecycle';
export * from './lifecycle.module';
export * from './moves';
export * from './outbox';
export * from './sweeper';
export * from './transitions';
