import { checkHashes, recordedHashes, type Differences } from './markdown-hashes/check';

/**
 * The HWP and HWPX readers on the document model: for every dev-set input of both formats the
 * document's Markdown is byte for byte the Markdown today's readers recorded
 * (markdown-hashes/hwp.json and hwpx.json), but for the inputs listed here with why the new
 * Markdown is better. An input listed here whose Markdown no longer differs fails too, so the
 * list stays true. The two formats share one builder, so an HWP file and its HWPX twin are
 * written alike: their recorded hashes are equal, and so must the new ones be.
 */
const DIFFERENCES: Record<string, Differences> = {
  hwp: {},
  hwpx: {},
};

describe.each(Object.keys(DIFFERENCES))('the %s reader on the document model', (format) => {
  it('writes every dev-set input as it was recorded, or as listed in DIFFERENCES', async () => {
    const expected = Object.fromEntries(
      Object.keys(recordedHashes(format)).map((path) => [path, path in DIFFERENCES[format] ? 'different' : 'same']),
    );
    expect(await checkHashes(format)).toEqual(expected);
  });
});

describe('HWP and HWPX twins', () => {
  it('were recorded with the same Markdown, name for name', () => {
    const twin = (path: string) => path.replace(/^hwpx?\//, '').replace(/\.hwpx?$/, '');
    const hwp = Object.entries(recordedHashes('hwp')).map(([path, hash]) => [twin(path), hash]);
    const hwpx = Object.entries(recordedHashes('hwpx')).map(([path, hash]) => [twin(path), hash]);
    expect(hwp.length).toBeGreaterThan(0);
    expect(Object.fromEntries(hwp)).toEqual(Object.fromEntries(hwpx));
  });
});
