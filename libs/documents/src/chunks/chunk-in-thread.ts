import { compiledThreadEntry, runInThread } from '@docconv/contracts';
import type { StructuredResult } from '../blocks/structured-result';
import type { Chunk, ChunkOptions } from './chunk-result';

export interface ChunkRequest {
  markdown: string;
  result: StructuredResult;
  options: ChunkOptions;
}

/** The heap one chunking may use, and how long it may take. */
const CHUNK_LIMITS = { memoryMb: 1024, timeoutMs: 120_000 };

/**
 * The chunks of a job's result, counted in a worker thread: a result of megabytes takes seconds
 * of tokenizing, which must not stall the API's other requests.
 */
export function chunksInThread(request: ChunkRequest): Promise<Chunk[]> {
  return runInThread<Chunk[]>(compiledThreadEntry(__dirname, 'chunk-thread.js'), request, CHUNK_LIMITS);
}
