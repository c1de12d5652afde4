import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractHwpx } from '../libs/documents/src/hwpx/extract-hwpx';
import { readMarkdown, writeMarkdown } from '@docconv/model';
import { renderHwpx } from '../libs/render/src/render-hwpx';
import { similarity } from '../tools/eval/metrics';
import { parseMarkdownTables, type Table } from '../tools/eval/tables';
import { evalsetPath } from './evalset';

const NAMES = ['example', 'noori', 'sample-5017'] as const;

/** A table's shape: its rows, each as the spans of its cells (`1×1`, `2×1`, …). */
function shape(table: Table): string[][] {
  return table.rows.map((row) => row.map((cell) => `${cell.rowspan}×${cell.colspan}`));
}

describe('HWPX written from the Markdown of each evalset HWPX reads back, through our extractor, the same', () => {
  let folder: string;
  const figures: string[] = [];
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'docconv-hwpx-'));
  });
  afterAll(async () => {
    process.stdout.write(`\nHWPX round trip (text similarity, tables)\n${figures.join('\n')}\n`);
    await rm(folder, { recursive: true, force: true });
  });

  it.each(NAMES)('%s.hwpx: text similarity 0.98 or more, every table with its shape', async (name) => {
    const first = writeMarkdown(await extractHwpx(evalsetPath(`hwpx/${name}.hwpx`), `${name}.hwpx`));
    const path = join(folder, `${name}.hwpx`);
    await writeFile(path, await renderHwpx(readMarkdown(first, `${name}.hwpx`), { title: `${name}.hwpx` }));
    const second = writeMarkdown(await extractHwpx(path, `${name}.hwpx`));
    const score = similarity(second, first);
    const before = parseMarkdownTables(first);
    const after = parseMarkdownTables(second);
    figures.push(`  ${name.padEnd(12)} ${score.toFixed(4)}  ${after.length} of ${before.length} tables`);
    expect(score).toBeGreaterThanOrEqual(0.98);
    expect(after.map(shape)).toEqual(before.map(shape));
  });
});
