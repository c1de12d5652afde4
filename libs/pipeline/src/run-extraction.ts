import { DomainError, type ErrorCode } from '@docconv/contracts';
import type { ExtractInput, Extraction } from '@docconv/documents';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ThreadCommand, ThreadMessage } from './extraction-thread';

/** The compiled thread entry; absent when running from TypeScript sources (the tests' in-process API never parses). */
const THREAD_ENTRY = join(__dirname, 'extraction-thread.js');

/**
 * Extracts one file in a worker thread. Resolves with the Markdown and its page report; rejects with the thread's
 * DomainError (a problem with the file) or a plain Error (a fault of ours, worth retrying).
 * At `deadline` the thread is terminated and the extraction fails as too slow; a file that needs more than
 * `memoryMb` of heap costs the thread, not the worker, and fails the same way. Once `stop` is
 * aborted, a PDF or image ends after the page in hand with what was read (`stopped`).
 */
export function runExtraction(
  input: ExtractInput,
  onProgress: (done: number) => void,
  deadline: number,
  memoryMb: number,
  stop?: AbortSignal,
): Promise<Extraction> {
  if (!existsSync(THREAD_ENTRY))
    throw new Error(`extraction thread entry ${THREAD_ENTRY} is missing; build the project`);
  return new Promise((resolve, reject) => {
    const thread = new Worker(THREAD_ENTRY, {
      workerData: input,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    });
    let settled = false;
    const askToStop = () => thread.postMessage({ type: 'stop' } satisfies ThreadCommand);
    if (stop?.aborted) askToStop();
    else stop?.addEventListener('abort', askToStop, { once: true });
    const settle = (action: () => void): void => {
      if (settled) return;
      settled = true;
      stop?.removeEventListener('abort', askToStop);
      clearTimeout(timer);
      action();
      void thread.terminate();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new DomainError(
              'file_processing_failed',
              `${input.displayName} took longer than this job may run. Ask for a refund, or split the file.`,
            ),
          ),
        ),
      Math.max(0, deadline - Date.now()),
    );
    thread.on('message', (message: ThreadMessage) => {
      if (message.type === 'progress') onProgress(message.done);
      else if (message.type === 'done') settle(() => resolve(message.extraction));
      else
        settle(() =>
          reject(
            message.code ? new DomainError(message.code as ErrorCode, message.message) : new Error(message.message),
          ),
        );
    });
    thread.on('error', (error) =>
      settle(() =>
        reject(
          (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new DomainError(
                'file_processing_failed',
                `${input.displayName} needs more than ${memoryMb} MB of memory to convert, more than a job may use. Ask for a refund, or split the file.`,
              )
            : error,
        ),
      ),
    );
    thread.on('exit', (code) => settle(() => reject(new Error(`extraction thread exited with code ${code}`))));
  });
}
