import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { CHUNK_STRATEGIES, TOKENIZER, type ChunkStrategy } from '@docconv/documents';
import { QueryInt } from '../common/query-int';

/** The query of GET /jobs/{job_id}/chunks. */
export class ChunksQuery {
  @ApiPropertyOptional({
    enum: CHUNK_STRATEGIES,
    default: 'structure',
    description:
      'structure (default): a heading opens a chunk, and blocks are packed up to max_tokens in reading order, a block too long ' +
      'for one cut between table rows (its header repeated), lines, sentences, then words. page: one chunk per page (PDF page, ' +
      'image frame, slide, sheet; a file without pages is one page), cut the same way when it is over max_tokens.',
  })
  @IsOptional()
  @IsIn(CHUNK_STRATEGIES, { message: `must be one of ${CHUNK_STRATEGIES.join(', ')}` })
  strategy: ChunkStrategy = 'structure';

  @QueryInt({
    min: 64,
    max: 8192,
    default: 512,
    description: `No chunk's text is more tokens than this (tokenizer ${TOKENIZER}).`,
  })
  max_tokens: number = 512;

  @QueryInt({
    min: 0,
    max: 4096,
    default: 0,
    description:
      'At most this many tokens of the end of a chunk are repeated at the start of the next one of the same section or page; at most half of max_tokens.',
  })
  overlap_tokens: number = 0;

  @QueryInt({ min: 1, max: 1000, default: 100, description: 'Chunks a page.' })
  limit: number = 100;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page' })
  @IsOptional()
  @IsString()
  cursor?: string;
}
