export * from './redis.module';
export * from './queue.module';
export * from './queues';
