export * from './character-references';
export * from './dropped-characters';
