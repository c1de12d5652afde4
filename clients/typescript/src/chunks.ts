import { unwrap, type DocconvClient } from './client';
import type { components, paths } from './schema';

/** A page of GET /api/v1/jobs/{job_id}/chunks. */
export type ChunkList = components['schemas']['ChunkList'];
/** One chunk: its Markdown, tokens (cl100k_base), heading path, pages and boxes, offsets in result.md and block ids. */
export type Chunk = ChunkList['chunks'][number];
type ChunksQuery = NonNullable<paths['/api/v1/jobs/{job_id}/chunks']['get']['parameters']['query']>;

export interface ChunkOptions {
  /** `structure` (the default): a heading opens a chunk; `page`: one chunk per page, cut when over the limit. */
  strategy?: ChunksQuery['strategy'];
  /** No chunk is more tokens than this: 64 to 8192, 512 by default. */
  maxTokens?: number;
  /** Tokens of a chunk's end repeated at the start of the next (at most half of maxTokens); 0 by default. */
  overlapTokens?: number;
}

/** One page of a finished job's chunks (free); `cursor` is the `next_cursor` of the page before. */
export function listChunks(
  client: DocconvClient,
  jobId: string,
  options: ChunkOptions & { limit?: number; cursor?: string } = {},
): Promise<ChunkList> {
  return unwrap(
    client.api.GET('/api/v1/jobs/{job_id}/chunks', {
      params: {
        path: { job_id: jobId },
        query: {
          strategy: options.strategy,
          max_tokens: options.maxTokens,
          overlap_tokens: options.overlapTokens,
          limit: options.limit,
          cursor: options.cursor,
        },
      },
    }),
  );
}

/** Every chunk of a finished job, in reading order, fetched a page at a time as they are read. */
export async function* allChunks(
  client: DocconvClient,
  jobId: string,
  options: ChunkOptions = {},
): AsyncGenerator<Chunk> {
  let cursor: string | undefined;
  do {
    const page = await listChunks(client, jobId, { ...options, limit: 1000, cursor });
    yield* page.chunks;
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
}
