import type { StructuredResult } from '../../blocks/structured-result';
import type { Chunk, ChunkOptions } from '../chunk-result';
import { countTokens } from '../tokens';

/**
 * What is wrong with `chunks` of `markdown` (result.md) and its structured result, against the
 * promises of GET /jobs/{job_id}/chunks; empty when nothing is. Shared by the unit specs (made-up
 * results) and the evalset spec (results of real documents through the live stack).
 */
export function chunkProblems(
  markdown: string,
  result: StructuredResult,
  chunks: Chunk[],
  options: ChunkOptions,
): string[] {
  const problems: string[] = [];
  const points = Array.from(markdown);
  const slice = ([start, end]: [number, number]) => points.slice(start, end).join('');
  const blocks = result.blocks.filter((block) => block.markdown !== null);
  const holding = new Map<number, number[]>(); // block id → chunks holding it
  let end = 0;
  chunks.forEach((chunk, i) => {
    const where = `chunk ${i}`;
    if (chunk.index !== i) problems.push(`${where}: index ${chunk.index}`);
    const tokens = countTokens(chunk.text);
    if (chunk.tokens !== tokens) problems.push(`${where}: says ${chunk.tokens} tokens, its text is ${tokens}`);
    if (tokens > options.maxTokens) problems.push(`${where}: ${tokens} tokens, over ${options.maxTokens}`);
    if (!chunk.text.includes(slice(chunk.markdown)))
      problems.push(`${where}: its text is not its stretch of result.md`);
    const own: [number, number] = [chunk.overlap ? chunk.overlap.markdown[1] : chunk.markdown[0], chunk.markdown[1]];
    if (chunk.overlap) {
      if (chunk.overlap.markdown[0] !== chunk.markdown[0]) problems.push(`${where}: the overlap does not lead it`);
      if (countTokens(slice(chunk.overlap.markdown).trimEnd()) > options.overlapTokens)
        problems.push(`${where}: an overlap of more than ${options.overlapTokens} tokens`);
    }
    if (own[0] < end) problems.push(`${where}: starts at ${own[0]}, inside the chunk before (ends ${end})`);
    end = own[1];
    for (const block of blocks) {
      const [start, stop] = block.markdown!;
      if (stop <= own[0] || start >= own[1]) continue;
      holding.set(block.id, [...(holding.get(block.id) ?? []), i]);
    }
    const ids = chunk.blocks.map((block) => block.id);
    const expected = blocks
      .filter((block) => block.markdown![1] > own[0] && block.markdown![0] < own[1])
      .map((block) => block.id);
    if (ids.join() !== expected.join())
      problems.push(`${where}: blocks ${ids.join()}, its stretch holds ${expected.join()}`);
    for (const held of chunk.blocks) {
      const block = result.blocks[held.id];
      const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
      if (!same(held.page, block.page) || !same(held.box, block.box) || !same(held.position, block.position))
        problems.push(`${where}: block ${held.id}'s place differs from the structured result's`);
    }
    const pages = [...new Set(chunk.blocks.flatMap((b) => b.pages ?? (b.page !== undefined ? [b.page] : [])))];
    if ((chunk.pages ?? []).join() !== pages.sort((a, b) => a - b).join())
      problems.push(`${where}: pages ${chunk.pages?.join()}`);
    const content =
      chunk.blocks.find((b) => result.blocks[b.id].type !== 'heading') ?? chunk.blocks[chunk.blocks.length - 1];
    const first = result.blocks[content.id];
    const heading = [...blocks]
      .reverse()
      .find(
        (block) => block.type === 'heading' && block.file === first.file && block.markdown![0] <= first.markdown![0],
      );
    if (heading && chunk.heading_path[chunk.heading_path.length - 1] !== heading.text.trim())
      problems.push(
        `${where}: heading path ${JSON.stringify(chunk.heading_path)}, the heading above is "${heading.text}"`,
      );
  });
  for (const block of blocks) {
    const held = holding.get(block.id) ?? [];
    if (held.length === 0 && /\S/.test(slice(block.markdown!))) problems.push(`block ${block.id} is in no chunk`);
    if (held.length > 1 && held.some((i) => !chunks[i].blocks.find((b) => b.id === block.id)?.partial))
      problems.push(`block ${block.id} is in chunks ${held.join()}, not marked partial`);
    if (block.type === 'table' && held.length > 1) {
      for (const i of held.slice(1)) {
        const cut = chunks[i].overlap ? chunks[i].overlap.markdown[1] : chunks[i].markdown[0];
        const row = points.slice(cut, cut + 3).join('');
        if (points[cut - 1] === '\n' && /^(\||<tr)/.test(row)) continue;
        // A row is cut only when it does not fit in a chunk beside the table's header (and an HTML
        // table's closing tag, which a chunk cut after it adds).
        const table = slice(block.markdown!).split('\n');
        const next = points.indexOf('\n', cut);
        const line = slice([points.lastIndexOf('\n', cut - 1) + 1, next < 0 ? points.length : next]);
        const closed = table[0].startsWith('<table') ? ['</table>'] : [];
        // (Two tokens of slack: counts of joined text differ from the sum of their parts by a token or so.)
        if (countTokens([...table.slice(0, 2), line, ...closed].join('\n')) <= options.maxTokens - 2)
          problems.push(`table ${block.id} is cut inside a row (chunk ${i})`);
      }
    }
  }
  return problems;
}
