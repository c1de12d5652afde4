export * from './error-codes';
export * from './domain-error';
export * from './queues';
export * from './scopes';
export * from './capabilities';
export * from './thread-entry';
export * from './page-failures';
