import { parentPort, workerData } from 'node:worker_threads';
import { answerFromThread } from '@docconv/contracts';
import { chunkResult } from './chunk-result';
import type { ChunkRequest } from './chunk-in-thread';

/** Chunks one result off the caller's event loop and posts the chunks (or the error's message) back. */
if (parentPort) {
  const { markdown, result, options } = workerData as ChunkRequest;
  answerFromThread(parentPort, () => chunkResult(markdown, result, options));
}
