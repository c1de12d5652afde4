export * from './app-config';
export * from './boot';
export * from './config.module';
export * from './load-config';
export * from './local-stack';
export * from './process-lifecycle';
export * from './public-url';
