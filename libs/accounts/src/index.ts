export * from './accounts.module';
export * from './tokens.service';
export * from './sessions.service';
export * from './users.service';
export * from './api-keys.service';
export * from './account.service';
export * from './api-key-cache';
