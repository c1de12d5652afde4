export * from './tesseract';
