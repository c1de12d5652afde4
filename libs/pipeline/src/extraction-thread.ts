import { parentPort, workerData } from 'node:worker_threads';
import { DomainError } from '@docconv/contracts';
import { extractToMarkdown, type ExtractInput, type Extraction } from '@docconv/documents';

/** Messages from an extraction thread to the worker that started it. */
export type ThreadMessage =
  | { type: 'progress'; done: number }
  | { type: 'done'; extraction: Extraction }
  | { type: 'error'; code?: string; message: string };

/** Messages from the worker to an extraction thread. */
export type ThreadCommand = { type: 'stop' };

/**
 * Runs one file's extraction off the worker's event loop, so heartbeats, locks and progress
 * keep flowing. A `stop` command (the job was cancelled) ends a PDF or image after the page in hand.
 */
if (parentPort) {
  const port = parentPort;
  const post = (message: ThreadMessage) => port.postMessage(message);
  let stopRequested = false;
  port.on('message', (command: ThreadCommand) => {
    if (command.type === 'stop') stopRequested = true;
  });
  extractToMarkdown(
    workerData as ExtractInput,
    (done) => post({ type: 'progress', done }),
    () => stopRequested,
  ).then(
    (extraction) => post({ type: 'done', extraction }),
    (error: unknown) =>
      post(
        error instanceof DomainError
          ? { type: 'error', code: error.code, message: error.message }
          : { type: 'error', message: error instanceof Error ? error.message : String(error) },
      ),
  );
}
