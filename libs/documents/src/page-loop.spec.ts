import { DomainError } from '@docconv/contracts';
import { readPageByPage } from './page-loop';

describe('readPageByPage', () => {
  const read = (failing: number[]) => async (page: number) => {
    if (failing.includes(page)) throw new DomainError('file_processing_failed', `Page ${page} is torn.`);
    return { page, source: 'text' as const };
  };

  it('reports a page that cannot be read as failed, with its reason, and reads the rest', async () => {
    const done: number[] = [];
    const result = await readPageByPage(4, 'a.pdf', read([2]), (n) => done.push(n));
    expect(result).toEqual({
      stopped: false,
      reports: [
        { page: 1, source: 'text' },
        { page: 2, source: 'failed', failure: 'unreadable', notes: ['Page 2 is torn.'] },
        { page: 3, source: 'text' },
        { page: 4, source: 'text' },
      ],
    });
    expect(done).toEqual([1, 2, 3, 4]);
  });

  it('names the page and file when the error is not one of ours', async () => {
    const result = await readPageByPage(
      2,
      'b.pdf',
      async (page) => {
        if (page === 1) throw new Error('bad xref');
        return { page, source: 'ocr' as const };
      },
      () => undefined,
    );
    expect(result.reports[0]).toEqual({
      page: 1,
      source: 'failed',
      failure: 'unreadable',
      notes: ['Page 1 of b.pdf could not be read (bad xref).'],
    });
  });

  it('fails the file with the first error when no page could be read', async () => {
    await expect(readPageByPage(3, 'c.pdf', read([1, 2, 3]), () => undefined)).rejects.toThrow('Page 1 is torn.');
  });

  it('stops before the next page once asked, keeping the pages read', async () => {
    let asked = false;
    const result = await readPageByPage(
      5,
      'd.pdf',
      async (page) => {
        if (page === 2) asked = true;
        return { page, source: 'text' as const };
      },
      () => undefined,
      () => asked,
    );
    expect(result).toEqual({
      stopped: true,
      reports: [
        { page: 1, source: 'text' },
        { page: 2, source: 'text' },
      ],
    });
  });

  it('a stop before the first page reads nothing and is not a failure', async () => {
    expect(
      await readPageByPage(
        3,
        'e.pdf',
        read([]),
        () => undefined,
        () => true,
      ),
    ).toEqual({ stopped: true, reports: [] });
  });

  it('hears a stop that arrives as an event while pages are read through promises alone', async () => {
    // The stop comes the way a thread hears it, from an event; the pages never leave the microtask queue.
    let stopRequested = false;
    setImmediate(() => (stopRequested = true));
    const result = await readPageByPage(
      1_000,
      'f.pdf',
      read([]),
      () => undefined,
      () => stopRequested,
    );
    expect(result.stopped).toBe(true);
    expect(result.reports.length).toBeLessThan(1_000);
  });
});
