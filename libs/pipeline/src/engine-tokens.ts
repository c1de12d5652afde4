/**
 * Injection tokens for the engines a worker may hold: the speech-to-text model (loaded once at
 * boot) and the language model that refines layout. Each resolves to null when not configured.
 */
export const TRANSCRIBER = Symbol('TRANSCRIBER');
export const LANGUAGE_MODEL = Symbol('LANGUAGE_MODEL');
