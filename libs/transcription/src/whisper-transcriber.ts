import { compiledThreadEntry, DomainError } from '@docconv/contracts';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Transcriber, Transcript, TranscriptionProgress } from './transcriber';
import { inspectWhisperModel, InvalidWhisperModelError, type WhisperModelInfo } from './whisper-model-file';
import type { LoadMessage, RequestMessage, TranscribeRequest, WhisperThreadData } from './whisper-thread-protocol';

export interface WhisperTranscriberOptions {
  /** A whisper.cpp ggml model file (`WHISPER_MODEL_PATH`), such as ggml-base.bin. */
  modelPath: string;
  /** CPU threads whisper.cpp computes with. Default 2. */
  threads?: number;
  /**
   * Long recordings are transcribed in blocks of about this many seconds, cut at quiet
   * moments; progress is reported after each block. Default 300.
   */
  blockSeconds?: number;
}

const DEFAULT_THREADS = 2;
const DEFAULT_BLOCK_SECONDS = 300;

/**
 * Checks the model file, then starts a whisper thread that loads it. Rejects with an
 * `InvalidWhisperModelError` naming the file when it is missing or not a usable model; a bad
 * file never reaches whisper.cpp, which would abort the process on some of them.
 */
export async function createWhisperTranscriber(options: WhisperTranscriberOptions): Promise<WhisperTranscriber> {
  return WhisperTranscriber.start(options);
}

interface PendingRequest {
  resolve: (transcript: Transcript) => void;
  reject: (error: Error) => void;
  onProgress?: TranscriptionProgress;
}

/**
 * whisper.cpp through `@napi-rs/whisper`, in a worker thread of its own that holds the model
 * for the transcriber's life. Files are transcribed one at a time, in the order asked.
 * Recordings whose audio cannot be decoded reject with a `file_processing_failed` DomainError;
 * engine faults reject with a plain Error.
 */
export class WhisperTranscriber implements Transcriber {
  private readonly pending = new Map<number, PendingRequest>();
  private nextId = 1;
  /** Set once the transcriber cannot take requests any more: why. */
  private stopped: Error | null = null;

  private constructor(
    private readonly thread: Worker,
    /** The checked model file. */
    readonly model: WhisperModelInfo,
    private readonly blockSeconds: number,
  ) {
    thread.on('message', (message: RequestMessage) => this.receive(message));
    thread.on('error', (error) => this.stop(new Error(`The whisper thread failed: ${error.message}`)));
    thread.on('exit', (code) => this.stop(new Error(`The whisper thread exited with code ${code}`)));
    // An idle transcriber does not keep the process alive; a running transcription does.
    thread.unref();
  }

  static async start(options: WhisperTranscriberOptions): Promise<WhisperTranscriber> {
    const threads = options.threads ?? DEFAULT_THREADS;
    const blockSeconds = options.blockSeconds ?? DEFAULT_BLOCK_SECONDS;
    if (!Number.isInteger(threads) || threads < 1 || threads > 64)
      throw new RangeError(`threads must be a whole number from 1 to 64, not ${threads}`);
    if (!(blockSeconds >= 10)) throw new RangeError(`blockSeconds must be at least 10, not ${blockSeconds}`);

    const model = await inspectWhisperModel(resolve(options.modelPath));
    const thread = startWhisperThread({ modelPath: model.path, threads });
    await modelLoaded(thread, model.path);
    return new WhisperTranscriber(thread, model, blockSeconds);
  }

  transcribe(path: string, onProgress?: TranscriptionProgress): Promise<Transcript> {
    if (this.stopped) return Promise.reject(this.stopped);
    const request: TranscribeRequest = { id: this.nextId++, path: resolve(path), blockSeconds: this.blockSeconds };
    return new Promise((resolvePromise, reject) => {
      this.pending.set(request.id, { resolve: resolvePromise, reject, onProgress });
      this.thread.ref();
      this.thread.postMessage(request);
    });
  }

  /** Rejects the transcriptions not finished yet and stops the thread (after the block it is computing, if any). */
  async close(): Promise<void> {
    this.stop(new Error('The transcriber is closed'));
    await this.thread.terminate();
  }

  private receive(message: RequestMessage): void {
    const request = this.pending.get(message.id);
    if (!request) return;
    switch (message.type) {
      case 'progress':
        request.onProgress?.(message.fraction);
        break;
      case 'done':
        this.forget(message.id);
        request.resolve(message.transcript);
        break;
      case 'failed':
        this.forget(message.id);
        request.reject(
          message.unreadableAudio
            ? new DomainError('file_processing_failed', message.message)
            : new Error(`whisper could not transcribe the file: ${message.message}`),
        );
        break;
    }
  }

  private forget(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.thread.unref();
  }

  private stop(reason: Error): void {
    this.stopped ??= reason;
    for (const request of this.pending.values()) request.reject(this.stopped);
    this.pending.clear();
  }
}

/**
 * Starts the thread from the compiled `whisper-thread.js` beside this file (the build in dist/),
 * or its copy under dist/ when running from TypeScript sources (the tests build first).
 */
function startWhisperThread(data: WhisperThreadData): Worker {
  return new Worker(compiledThreadEntry(__dirname, 'whisper-thread.js'), { workerData: data });
}

/** Resolves when the thread has loaded the model; rejects, and stops the thread, when it could not. */
function modelLoaded(thread: Worker, modelPath: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const fail = (error: Error) => {
      cleanUp();
      void thread.terminate();
      reject(error);
    };
    const onMessage = (message: LoadMessage) => {
      if (message.type === 'ready') {
        cleanUp();
        resolvePromise();
      } else fail(new InvalidWhisperModelError(modelPath, `whisper.cpp could not load it (${message.message})`));
    };
    const onError = (error: Error) =>
      fail(new Error(`The whisper thread failed while loading ${modelPath}: ${error.message}`));
    const onExit = (code: number) =>
      fail(new Error(`The whisper thread exited with code ${code} while loading ${modelPath}`));
    const cleanUp = () => {
      thread.off('message', onMessage);
      thread.off('error', onError);
      thread.off('exit', onExit);
    };
    thread.on('message', onMessage);
    thread.on('error', onError);
    thread.on('exit', onExit);
  });
}
