/** One stretch of recognised speech; times in seconds from the start of the recording. */
export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
}

/** What a transcriber heard in one recording. */
export interface Transcript {
  /** ISO 639-1 code of the spoken language (`en`, `ko`, …), as the engine detected it. */
  language: string;
  segments: TranscriptSegment[];
  /** What a reader should know about how it was heard (a model that knows one language only). */
  note?: string;
}

/** Called with the share of the recording transcribed so far, 0…1; the last call is 1. */
export type TranscriptionProgress = (fraction: number) => void;

/**
 * A speech-to-text engine. One instance holds its model in memory and transcribes one file
 * at a time; calls made while it is busy wait their turn.
 */
export interface Transcriber {
  /**
   * Transcribes the audio of `path`: an audio file (MP3, WAV, FLAC, Ogg, M4A…) or a video file.
   * Past `deadline` (epoch milliseconds), when the engine can stop, it stops and rejects.
   */
  transcribe(path: string, onProgress?: TranscriptionProgress, deadline?: number): Promise<Transcript>;
  /** Frees the model and the engine's thread; later calls to `transcribe` reject. */
  close(): Promise<void>;
}
