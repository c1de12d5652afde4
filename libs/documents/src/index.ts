export * from './detect';
export * from './inspect';
export * from './kinds';
export * from './pdf/extract-pdf';
export * from './extract';
