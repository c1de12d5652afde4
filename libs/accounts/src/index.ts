export * from './accounts.module';
export * from './tokens.service';
export * from './users.service';
