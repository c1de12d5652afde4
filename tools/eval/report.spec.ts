import type { HygieneCounts } from './hygiene';
import { scoreTables, type Table } from './tables';
import { formatItems, formatSummary, summarise, summariseHygiene, type ItemReport } from './report';
import { formatPairs, formatTables, hwpPairs } from './report-sections';

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

function withHygiene(report: ItemReport, counts: Partial<HygieneCounts>): ItemReport {
  const all: HygieneCounts = {
    controlCharacters: 0,
    replacementCharacters: 0,
    privateUse: 0,
    literalEmphasis: 0,
    pageNumberLines: 0,
    ...counts,
  };
  return { ...report, hygiene: { counts: all, examples: {} } };
}

const items: ItemReport[] = [
  withHygiene(
    item('pdf/a.pdf', 'scored', {
      docling: { similarity: 0.9, nid: 0.7, headings: 0.25, teds: 0.5 },
      independent: { tests: 1 },
    }),
    { controlCharacters: 12, pageNumberLines: 2 },
  ),
  item('pdf/b.pdf', 'failed', { docling: { similarity: 0, nid: 0, headings: 0 } }),
  withHygiene(item('image/c.png', 'scored', { independent: { similarity: 0.8, nid: 0.6 } }), { literalEmphasis: 3 }),
  withHygiene(item('image/e.png', 'scored', {}), { controlCharacters: 1 }),
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
    expect(find('pdf', 'docling', 'nid')).toMatchObject({ items: 2, mean: 0.35, min: 0, max: 0.7 });
    expect(find('pdf', 'docling', 'headings')).toMatchObject({ items: 2, mean: 0.125 });
    expect(find('image', 'independent', 'nid')?.mean).toBe(0.6);
    expect(find('pdf', 'independent', 'tests')?.mean).toBe(1);
    expect(find('pdf', 'independent', 'similarity')).toBeUndefined();
    expect(find('all', 'independent', 'similarity')?.mean).toBe(0.8);
    expect(find('all', 'docling', 'similarity')?.items).toBe(2);
    expect(rows.some((r) => r.format === 'audio')).toBe(false);
  });
});

describe('summariseHygiene', () => {
  it('sums every count over the outputs of a format and over all, leaving out items without output', () => {
    const rows = summariseHygiene(items);
    const find = (format: string, kind: string) => rows.find((r) => r.format === format && r.kind === kind);
    expect(find('pdf', 'controlCharacters')).toEqual({
      format: 'pdf',
      kind: 'controlCharacters',
      items: 1,
      total: 12,
      mean: 12,
      min: 12,
      max: 12,
    });
    expect(find('pdf', 'privateUse')?.total).toBe(0);
    expect(find('image', 'controlCharacters')).toMatchObject({ items: 2, total: 1, mean: 0.5, min: 0, max: 1 });
    expect(find('all', 'controlCharacters')).toMatchObject({ items: 3, total: 13 });
    expect(find('all', 'literalEmphasis')?.total).toBe(3);
    expect(rows.filter((r) => r.format === 'pdf')).toHaveLength(5);
    expect(rows.some((r) => r.format === 'audio')).toBe(false);
  });
});

describe('formatSummary', () => {
  it('prints docling and independent scores on separate rows, per format and overall', () => {
    const text = formatSummary(items, summarise(items), summariseHygiene(items));
    expect(text).toContain('pdf (2 inputs: 1 scored, 1 failed, 0 skipped)');
    expect(text).toContain('audio (1 input: 0 scored, 0 failed, 1 skipped)\n  nothing scored');
    expect(text).toContain('ALL FORMATS (5 inputs: 3 scored, 1 failed, 1 skipped)');
    expect(text).toMatch(/docling\s+text similarity \(\.ref\.md\)\s+2\s+0\.450\s+0\.000\s+0\.900/);
    expect(text).toMatch(/independent\s+text similarity \(\.ref\.txt\)\s+1\s+0\.800/);
    expect(text).toMatch(/independent\s+olmOCR tests pass rate\s+1\s+1\.000/);
    expect(text).toMatch(/docling\s+reading order NID \(\.ref\.md\)\s+2\s+0\.350\s+0\.000\s+0\.700\n/);
    expect(text).toMatch(/docling\s+heading structure \(\.ref\.md\)\s+2\s+0\.125/);
    expect(text).toMatch(/independent\s+reading order NID \(\.ref\.txt\)\s+1\s+0\.600/);
  });

  it('adds the hygiene counts of the outputs with their totals', () => {
    const text = formatSummary(items, summarise(items), summariseHygiene(items));
    expect(text).toMatch(/output\s+control characters\s+1\s+12\.000\s+12\s+12\s+12\n/);
    expect(text).toMatch(/output\s+page-number lines\s+1\s+2\.000\s+2\s+2\s+2\n/);
    expect(text).toMatch(/output\s+control characters\s+3\s+4\.333\s+0\s+12\s+13\n/);
    expect(text).toMatch(/output\s+literal emphasis markers\s+2\s+1\.500\s+0\s+3\s+3\n/);
  });
});

describe('formatItems', () => {
  it('prints one line per item with its time, scores and first error', () => {
    const lines = formatItems(items).split('\n');
    expect(lines).toHaveLength(2 + items.length);
    expect(lines[2]).toMatch(
      /^pdf\/a\.pdf\s+scored\s+0\.75s\s+sim\(d\)=0\.900 nid\(d\)=0\.700 head\(d\)=0\.250 teds\(d\)=0\.500 tests\(i\)=1\.000 ctrl=12 pageno=2$/,
    );
    expect(lines[3]).toContain('failed because of something');
  });
});

describe('table structure exactness in the summary', () => {
  it('is the share of all counted reference tables, not the mean of the items’ shares', () => {
    const withTables = (path: string, counted: number, matched: number): ItemReport => ({
      path,
      format: 'hwp',
      status: 'scored',
      errors: [],
      references: [],
      metrics: { docling: {}, independent: { tableExact: matched / counted } },
      extractSeconds: 0,
      seconds: 0,
      details: {
        tables: { independent: { scores: [], predicted: 0, exact: true, structure: { exact: [], counted, matched } } },
      },
    });
    const [row] = summarise([withTables('hwp/a.hwp', 4, 3), withTables('hwp/b.hwp', 1, 0)]);
    expect(row).toMatchObject({ format: 'hwp', metric: 'tableExact', items: 2, min: 0, max: 0.75 });
    expect(row.mean).toBeCloseTo(3 / 5);
  });
});

describe('formatTables', () => {
  const cells = (...rows: string[][]): Table => ({
    rows: rows.map((row) => row.map((text) => ({ text, rowspan: 1, colspan: 1, header: false }))),
  });
  const withRead = (path: string, predicted: Table[], references: Table[]): ItemReport => ({
    ...item(path, 'scored', {}),
    details: {
      tables: {
        independent: { scores: [], predicted: predicted.length, exact: true, read: scoreTables(predicted, references) },
      },
    },
  });

  it('prints each document and each format pooled over its reference tables', () => {
    const a = cells(['', 'A'], ['x', '1']);
    const b = cells(['', 'B'], ['y', '2']);
    const text = formatTables([
      withRead('pdf/one.pdf', [a], [a]),
      withRead('pdf/two.pdf', [], [b]),
      item('pdf/x.pdf', 'scored', {}),
    ]);
    const lines = text.split('\n');
    expect(lines.find((l) => l.includes('pdf/one.pdf'))).toMatch(
      /independent\s+1\s+1\s+1\.000\s+1\.000\s+1\.000\s+1\.000\s+1\.000\s+1\.000$/,
    );
    expect(lines.find((l) => l.includes('pdf/two.pdf'))).toMatch(/independent\s+1\s+0\s+0\.000/);
    // Pooled: two reference tables, one found exactly; one output table, and it found one.
    expect(lines.find((l) => l.includes('pdf (2 inputs)'))).toMatch(
      /independent\s+2\s+1\s+0\.500\s+0\.500\s+0\.500\s+0\.500\s+0\.500\s+1\.000$/,
    );
    expect(text).not.toContain('pdf/x.pdf');
    expect(formatTables([item('pdf/x.pdf', 'scored', {})])).toBe('Tables: no input has reference tables.');
  });
});

describe('hwpPairs', () => {
  it('pairs hwp/<name>.hwp with hwpx/<name>.hwpx and compares their outputs', () => {
    const pairs = hwpPairs(
      new Map([
        ['hwpx/b.hwpx', '# 제목\n\n본문'],
        ['hwp/b.hwp', '제목\n\n**본문**'],
        ['hwp/a.hwp', 'abcd'],
        ['hwpx/a.hwpx', 'abce'],
        ['hwp/alone.hwp', 'x'],
        ['docx/b.docx', '본문'],
      ]),
    );
    expect(pairs).toEqual([
      { name: 'a', hwp: 'hwp/a.hwp', hwpx: 'hwpx/a.hwpx', similarity: 0.75 },
      { name: 'b', hwp: 'hwp/b.hwp', hwpx: 'hwpx/b.hwpx', similarity: 1 },
    ]);
    expect(formatPairs(pairs)).toContain('mean 0.875 over 2');
    expect(formatPairs(pairs)).toMatch(/a\s+hwp\/a\.hwp\s+hwpx\/a\.hwpx\s+0\.750/);
    expect(formatPairs([])).toBe('HWP/HWPX pairs: none in this set.');
  });
});
