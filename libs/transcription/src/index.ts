export * from './transcriber';
export * from './markdown';
export * from './official-models';
export { inspectWhisperModel, InvalidWhisperModelError } from './whisper-model-file';
export type { WhisperHyperparameters, WhisperModelInfo } from './whisper-model-file';
export { createWhisperTranscriber, WhisperTranscriber } from './whisper-transcriber';
export type { WhisperTranscriberOptions } from './whisper-transcriber';
export { EngineTranscriber } from './engine-transcriber';
export type { EngineTranscriberOptions, SpeechModel } from './engine-transcriber';
