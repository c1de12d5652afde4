import { readFileSync } from 'node:fs';
import type { ChunkOptions } from '@docconv/documents';
import type { TestKey } from '../test/support/accounts';
import { fetchChunks } from '../test/support/chunks';
import { convertedJob } from '../test/support/jobs';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { evalsetPath, fundedKey } from './evalset';

/** What each document is cut with: both strategies, a small limit that cuts tables and a common one with overlap. */
const OPTIONS: ChunkOptions[] = [
  { strategy: 'structure', maxTokens: 512, overlapTokens: 64 },
  { strategy: 'structure', maxTokens: 128, overlapTokens: 0 },
  { strategy: 'page', maxTokens: 256, overlapTokens: 32 },
];

/**
 * Chunks of real documents (the transcript's are checked in transcription.e2e-spec.ts, which
 * transcribes anyway): every promise of GET /jobs/{job_id}/chunks holds (chunkProblems).
 */
describe('evalset chunks: a PDF with tables and headings, a DOCX with tables, an HWP', () => {
  let t: TestApp;
  let key: TestKey;
  beforeAll(async () => {
    t = await createTestApp();
    key = await fundedKey(t, 'evalchunks');
  });
  afterAll(() => t.close());

  async function finished(relative: string): Promise<string> {
    const file = { name: relative.split('/')[1], content: readFileSync(evalsetPath(relative)) };
    const { jobId, job } = await convertedJob(t.http, key.key, file, {}, 300_000);
    expect(job.status).toBe('done');
    return jobId;
  }

  it.each(['pdf/redp5110_sampled.pdf', 'docx/docx_rich_tables_01.docx', 'hwp/noori.hwp'])(
    '%s: every chunk within its limit, in result.md, its blocks and places the structured result’s; no table row cut',
    async (relative) => {
      const jobId = await finished(relative);
      for (const options of OPTIONS) {
        const { chunks, markdown, result, problems } = await fetchChunks(t.http, key.key, jobId, options);
        expect({ options, problems }).toEqual({ options, problems: [] });
        expect(result.blocks.some((block) => block.type === 'table')).toBe(true);
        if (options.maxTokens === 128) {
          // Some table is longer than the limit: cut between rows, its header line leading each later part.
          const points = Array.from(markdown);
          const continued = chunks.filter((chunk) => {
            const table = result.blocks[chunk.blocks[0].id];
            if (table.type !== 'table' || chunk.markdown[0] === table.markdown![0]) return false;
            return chunk.text.startsWith(
              `${
                points
                  .slice(...table.markdown!)
                  .join('')
                  .split('\n')[0]
              }\n`,
            );
          });
          expect(continued.length).toBeGreaterThan(0);
        }
        if (relative.endsWith('.pdf'))
          expect(chunks.every((chunk) => chunk.pages && chunk.pages.length > 0)).toBe(true);
        else expect(chunks.every((chunk) => chunk.blocks.every((block) => block.position !== undefined))).toBe(true);
      }
    },
    600_000,
  );
});
