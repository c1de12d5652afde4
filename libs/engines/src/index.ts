export * from './engine-process';
export * from './python-engine';
