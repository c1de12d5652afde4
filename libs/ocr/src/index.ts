export * from './easyocr';
export * from './engine';
export * from './engines';
export * from './orientation';
export * from './rapidocr';
export * from './reading-order';
export * from './tessdata';
export * from './tesseract';
