export * from './redis.module';
export * from './queue.module';
