import Ajv2020 from 'ajv/dist/2020';
import type { Agent } from 'supertest';
import { CHUNK_LIST_SCHEMA, type ChunkList, type ChunkOptions, type StructuredResult } from '@docconv/documents';
import { chunkProblems } from '../../libs/documents/src/chunks/testing/chunk-checks';

const validChunkList = new Ajv2020({ allErrors: true, strict: true }).compile(CHUNK_LIST_SCHEMA as object);

/**
 * Every chunk of a finished job with `options`, fetched `limit` at a time, the result they were
 * cut from, and what is wrong with them (chunkProblems, and each page against the schema).
 */
export async function fetchChunks(http: Agent, apiKey: string, jobId: string, options: ChunkOptions, limit = 1000) {
  const get = (path: string) => http.get(`/api/v1/jobs/${jobId}/${path}`).set('X-API-Key', apiKey);
  const query = `strategy=${options.strategy}&max_tokens=${options.maxTokens}&overlap_tokens=${options.overlapTokens}`;
  const chunks: ChunkList['chunks'] = [];
  const problems: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await get(`chunks?${query}&limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
    if (res.status !== 200) throw new Error(`GET chunks: ${res.status} ${JSON.stringify(res.body)}`);
    if (!validChunkList(res.body)) problems.push(`schema: ${JSON.stringify(validChunkList.errors)}`);
    const list = res.body as ChunkList;
    chunks.push(...list.chunks);
    cursor = list.next_cursor;
    pages++;
    if (list.total < chunks.length) problems.push(`total ${list.total}, ${chunks.length} chunks so far`);
  } while (cursor !== null);
  const markdown = (await get('download')).text;
  const result = (await get('download?format=json')).body as StructuredResult;
  problems.push(...chunkProblems(markdown, result, chunks, options));
  return { chunks, pages, markdown, result, problems };
}
