export * from './archive/extract-archive';
export * from './detect';
export * from './extract';
export * from './inspect';
export * from './intake';
export * from './kinds';
export * from './ocr/ocr-page';
export * from './ocr/page-reader';
