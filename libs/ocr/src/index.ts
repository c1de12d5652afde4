export * from './easyocr';
export * from './engine';
export * from './engines';
export * from './rapidocr';
export * from './reading-order';
export * from './tessdata';
export * from './tesseract';
