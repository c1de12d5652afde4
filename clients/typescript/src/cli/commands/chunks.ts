import { open } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { allChunks, type ChunkOptions } from '../../chunks';
import { oneOf, parseCommandLine, positiveInteger, single } from '../args';
import { UsageError, type Terminal } from '../terminal';
import { connect } from './connect';

const STRATEGIES: readonly NonNullable<ChunkOptions['strategy']>[] = ['structure', 'page'];

export const CHUNKS_USAGE = `Usage: docconv chunks <job_id> [options]

Writes a finished job's result as chunks ready to embed, one JSON object a line (JSON Lines):
its Markdown, tokens, heading path, pages and boxes, offsets in result.md and block ids. Free.

Options:
  --strategy structure|page  structure (default): a heading opens a chunk, blocks are packed up to
                             the limit; page: one chunk per page, cut when over the limit
  --max-tokens <n>           no chunk is more tokens than this, 64 to 8192 (default 512;
                             tokenizer cl100k_base)
  --overlap-tokens <n>       tokens of a chunk's end repeated at the start of the next, at most
                             half of --max-tokens (default 0)
  --out, -o <file>           write the lines to this file (default: standard output)`;

/** `docconv chunks`: every chunk of a finished job as JSON Lines. */
export async function chunksCommand(args: string[], term: Terminal): Promise<void> {
  const { values, positionals } = parseCommandLine(CHUNKS_USAGE, () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        strategy: { type: 'string' },
        'max-tokens': { type: 'string' },
        'overlap-tokens': { type: 'string' },
        out: { type: 'string', short: 'o' },
      },
    }),
  );
  const jobId = single(positionals, 'job id', CHUNKS_USAGE);
  const overlap = values['overlap-tokens'];
  if (overlap !== undefined && !/^\d+$/.test(overlap))
    throw new UsageError('--overlap-tokens must be a whole number of at least 0', CHUNKS_USAGE);
  const options: ChunkOptions = {
    strategy: oneOf(values.strategy, STRATEGIES, '--strategy', CHUNKS_USAGE),
    maxTokens: positiveInteger(values['max-tokens'], '--max-tokens', CHUNKS_USAGE),
    overlapTokens: overlap === undefined ? undefined : Number(overlap),
  };
  const client = await connect(term);
  const file = values.out === undefined ? undefined : await open(values.out, 'w');
  let count = 0;
  try {
    for await (const chunk of allChunks(client, jobId, options)) {
      const line = `${JSON.stringify(chunk)}\n`;
      if (file) await file.write(line);
      else term.stdout.write(line);
      count++;
    }
  } finally {
    await file?.close();
  }
  if (file) term.stdout.write(`Wrote ${count} chunks to ${values.out}.\n`);
}
