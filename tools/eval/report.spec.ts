import { formatItems, formatSummary, summarise, type ItemReport } from './report';

function item(path: string, status: ItemReport['status'], metrics: Partial<ItemReport['metrics']>): ItemReport {
  return {
    path,
    format: path.split('/')[0],
    status,
    errors: status === 'scored' ? [] : [`${status} because of something`],
    references: [],
    metrics: { docling: {}, independent: {}, ...metrics },
    extractSeconds: 0.5,
    seconds: 0.75,
  };
}

const items: ItemReport[] = [
  item('pdf/a.pdf', 'scored', { docling: { similarity: 0.9, teds: 0.5 }, independent: { tests: 1 } }),
  item('pdf/b.pdf', 'failed', { docling: { similarity: 0 } }),
  item('image/c.png', 'scored', { independent: { similarity: 0.8 } }),
  item('audio/d.mp3', 'skipped', {}),
];

describe('summarise', () => {
  it('gives items, mean, min and max per format, group and metric, and over all formats', () => {
    const rows = summarise(items);
    const find = (format: string, group: string, metric: string) =>
      rows.find((r) => r.format === format && r.group === group && r.metric === metric);
    expect(find('pdf', 'docling', 'similarity')).toEqual({
      format: 'pdf',
      group: 'docling',
      metric: 'similarity',
      items: 2,
      mean: 0.45,
      min: 0,
      max: 0.9,
    });
    expect(find('pdf', 'docling', 'teds')?.items).toBe(1);
    expect(find('pdf', 'independent', 'tests')?.mean).toBe(1);
    expect(find('pdf', 'independent', 'similarity')).toBeUndefined();
    expect(find('all', 'independent', 'similarity')?.mean).toBe(0.8);
    expect(find('all', 'docling', 'similarity')?.items).toBe(2);
    expect(rows.some((r) => r.format === 'audio')).toBe(false);
  });
});

describe('formatSummary', () => {
  it('prints docling and independent scores on separate rows, per format and overall', () => {
    const text = formatSummary(items, summarise(items));
    expect(text).toContain('pdf (2 inputs: 1 scored, 1 failed, 0 skipped)');
    expect(text).toContain('audio (1 input: 0 scored, 0 failed, 1 skipped)\n  nothing scored');
    expect(text).toContain('ALL FORMATS (4 inputs: 2 scored, 1 failed, 1 skipped)');
    expect(text).toMatch(/docling\s+text similarity \(\.ref\.md\)\s+2\s+0\.450\s+0\.000\s+0\.900/);
    expect(text).toMatch(/independent\s+text similarity \(\.ref\.txt\)\s+1\s+0\.800/);
    expect(text).toMatch(/independent\s+olmOCR tests pass rate\s+1\s+1\.000/);
  });
});

describe('formatItems', () => {
  it('prints one line per item with its time, scores and first error', () => {
    const lines = formatItems(items).split('\n');
    expect(lines).toHaveLength(2 + items.length);
    expect(lines[2]).toMatch(/^pdf\/a\.pdf\s+scored\s+0\.75s\s+sim\(d\)=0\.900 teds\(d\)=0\.500 tests\(i\)=1\.000$/);
    expect(lines[3]).toContain('failed because of something');
  });
});
