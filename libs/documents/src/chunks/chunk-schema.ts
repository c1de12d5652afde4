import { BOX_SCHEMA, POSITION_SCHEMA, SPAN_SCHEMA } from '../blocks/structured-result';
import { CHUNK_STRATEGIES, type Chunk } from './chunk-result';
import { TOKENIZER } from './tokens';

/** One page of `GET /jobs/{job_id}/chunks`. */
export interface ChunkList {
  job_id: string;
  strategy: (typeof CHUNK_STRATEGIES)[number];
  max_tokens: number;
  overlap_tokens: number;
  tokenizer: typeof TOKENIZER;
  /** Chunks of the whole result. */
  total: number;
  chunks: Chunk[];
  /** The `cursor` of the next page; null on the last. */
  next_cursor: string | null;
}

/** The JSON Schema (2020-12) of `GET /jobs/{job_id}/chunks`. */
export const CHUNK_LIST_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'ChunkList',
  description:
    "A finished job's result cut into chunks ready to embed, in reading order, a page of them at a time. Offsets are " +
    "in Unicode code points of the downloaded result.md, as the structured result's; block ids are its blocks' ids.",
  type: 'object',
  required: ['job_id', 'strategy', 'max_tokens', 'overlap_tokens', 'tokenizer', 'total', 'chunks', 'next_cursor'],
  additionalProperties: false,
  properties: {
    job_id: { type: 'string' },
    strategy: { enum: [...CHUNK_STRATEGIES] },
    max_tokens: { type: 'integer', minimum: 1 },
    overlap_tokens: { type: 'integer', minimum: 0 },
    tokenizer: { const: TOKENIZER, description: "OpenAI's cl100k_base encoding (text-embedding-3, ada-002)" },
    total: { type: 'integer', minimum: 0, description: 'Chunks of the whole result' },
    next_cursor: {
      oneOf: [{ type: 'string' }, { type: 'null' }],
      description: 'The cursor of the next page; null on the last',
    },
    chunks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['index', 'text', 'tokens', 'file', 'heading_path', 'markdown', 'blocks'],
        additionalProperties: false,
        properties: {
          index: { type: 'integer', minimum: 0 },
          text: {
            type: 'string',
            description:
              "The chunk's Markdown: its `markdown` stretch of result.md, except that a table continued from the chunk before is led " +
              'by its header rows again, and an HTML table cut after it is closed',
          },
          tokens: { type: 'integer', minimum: 0, description: 'Tokens of `text`, at most max_tokens' },
          file: { type: 'string', description: "The job's file it comes from; a chunk never joins two files" },
          heading_path: {
            type: 'array',
            items: { type: 'string' },
            description: 'The headings in force where it starts, outermost first (its own leading headings included)',
          },
          markdown: { ...SPAN_SCHEMA, description: '[start, end) in result.md, in Unicode code points' },
          overlap: {
            type: 'object',
            required: ['markdown', 'blocks'],
            additionalProperties: false,
            description: 'The start of the chunk that repeats the end of the chunk before',
            properties: { markdown: SPAN_SCHEMA, blocks: { type: 'array', items: { type: 'integer', minimum: 0 } } },
          },
          blocks: {
            type: 'array',
            description: 'The blocks of the structured result it holds after its overlap, each with its place',
            items: {
              type: 'object',
              required: ['id'],
              additionalProperties: false,
              properties: {
                id: { type: 'integer', minimum: 0 },
                page: { type: 'integer', minimum: 1 },
                pages: { type: 'array', items: { type: 'integer', minimum: 1 } },
                box: BOX_SCHEMA,
                position: POSITION_SCHEMA,
                partial: {
                  const: true,
                  description: 'Only part of the block is in this chunk: it is too long for one',
                },
              },
            },
          },
          pages: {
            type: 'array',
            items: { type: 'integer', minimum: 1 },
            description: 'The pages its blocks stand on',
          },
        },
      },
    },
  },
} as const;
