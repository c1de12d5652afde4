import type { Transcript } from './transcriber';

/** What a whisper thread is started with. */
export interface WhisperThreadData {
  modelPath: string;
  threads: number;
}

/** A request to the thread: transcribe one file. */
export interface TranscribeRequest {
  id: number;
  path: string;
  /** Length of the steps the recording is transcribed in; progress is reported after each. */
  blockSeconds: number;
}

/** The thread's first message: whether the model loaded. */
export type LoadMessage = { type: 'ready' } | { type: 'load-failed'; message: string };

/** Messages about one request. */
export type RequestMessage =
  | { type: 'progress'; id: number; fraction: number }
  | { type: 'done'; id: number; transcript: Transcript }
  /** `unreadableAudio`: the file's fault (no decodable audio), not the engine's. */
  | { type: 'failed'; id: number; message: string; unreadableAudio: boolean };
