export * from './character-references';
