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

  it('a page that finishes after the cancel is not delivered, and no page after it is read', async () => {
    let cancelled = false;
    const reads: number[] = [];
    const done: number[] = [];
    const result = await readPageByPage(
      5,
      'd.pdf',
      async (page) => {
        reads.push(page);
        if (page === 2) cancelled = true; // the owner cancels while page 2 is read
        return { page, source: 'text' as const };
      },
      (n) => done.push(n),
      () => cancelled,
    );
    expect(result).toEqual({ stopped: true, dropped: { first: 2, last: 2 }, reports: [{ page: 1, source: 'text' }] });
    expect(reads).toEqual([1, 2]);
    expect(done).toEqual([1, 2]); // progress hears every page finished
  });

  it('a failed page that finishes after the cancel is not reported either', async () => {
    let cancelled = false;
    const result = await readPageByPage(
      3,
      'd.pdf',
      async (page) => {
        if (page === 1) return { page, source: 'text' as const };
        cancelled = true;
        throw new DomainError('file_processing_failed', `Page ${page} is torn.`);
      },
      () => undefined,
      () => cancelled,
    );
    expect(result).toEqual({ stopped: true, dropped: { first: 2, last: 2 }, reports: [{ page: 1, source: 'text' }] });
  });

  it('a cancel before the first page reads nothing and is not a failure', async () => {
    const reads: number[] = [];
    const result = await readPageByPage(
      3,
      'e.pdf',
      async (page) => {
        reads.push(page);
        return { page, source: 'text' as const };
      },
      () => undefined,
      () => true,
    );
    expect(result).toEqual({ stopped: true, reports: [] });
    expect(reads).toEqual([]);
  });

  it('reads on while an answer is on its way: the pages delivered are those finished before the last no was asked', async () => {
    // Each answer comes a few turns of the event loop later, as the worker's answer reaches a thread;
    // meanwhile pages of text, read in no time, go on. The fifth answer says the job was cancelled.
    let asked = 0;
    const askedAfter: number[] = [];
    const reads: number[] = [];
    const answer = () => {
      const n = ++asked;
      askedAfter.push(reads.length);
      return new Promise<boolean>((resolve) => setTimeout(() => resolve(n >= 5), 2));
    };
    const result = await readPageByPage(
      100_000,
      'f.pdf',
      async (page) => {
        reads.push(page);
        return { page, source: 'text' as const };
      },
      () => undefined,
      answer,
    );
    expect(asked).toBe(5);
    // Delivered: the pages finished when the fourth question (the last no) was asked.
    const delivered = askedAfter[3];
    expect(result.reports.map((r) => r.page)).toEqual(Array.from({ length: delivered }, (_, i) => i + 1));
    expect(result).toMatchObject({ stopped: true, dropped: { first: delivered + 1, last: reads.length } });
    expect(reads.length).toBeGreaterThan(delivered); // pages went on while the answers travelled
    expect(reads.length).toBeLessThan(100_000);
  });

  it('a question that cannot be answered fails the file: no page is delivered on a guess', async () => {
    const answer = () => Promise.reject(new Error('database unavailable'));
    await expect(readPageByPage(3, 'g.pdf', read([]), () => undefined, answer)).rejects.toThrow('database unavailable');
  });
});
