import { withPageFurniture, writeMarkdown } from '@docconv/model';
import type { PageLines } from './layout';
import { laidOut } from './layout-document';
import { pageStretches, SettledPages, type PageMarkdown } from './settled-pages';
import { page, run } from './testing/text-runs';

/** Page `n` of a report: a running head, a heading, a paragraph of body lines, and the page number. */
function reportPage(n: number): PageLines {
  const body = Array.from({ length: 6 }, (_, i) =>
    run(`Line ${i} of the findings of section ${n}, in plain words.`, 40, 120 + i * 12),
  );
  return {
    ...page([
      run('ACME annual report', 40, 30, 8),
      run(`Section ${n}`, 40, 80, 16),
      ...body,
      run(String(n), 300, 780, 8),
    ]),
    number: n,
  };
}

const PAGES = Array.from({ length: 7 }, (_, i) => reportPage(i + 1));

describe('pageStretches', () => {
  it('cuts a document’s Markdown by page: joined, the stretches are the Markdown; a page without blocks has none of its own', () => {
    const document = withPageFurniture(laidOut(PAGES.slice(0, 3), 'report.pdf').document, 'drop');
    const stretches = pageStretches(document, [1, 2, 3, 4]);
    expect(stretches.map((stretch) => stretch.page)).toEqual([1, 2, 3, 4]);
    expect(stretches.map((stretch) => stretch.markdown).join('')).toBe(writeMarkdown(document));
    expect(stretches[1].markdown).toMatch(/^\n\n# Section 2\n\nLine 0 of the findings of section 2/);
    // The last page ends the Markdown: a blank one carries its final line end.
    expect(stretches[3]).toEqual({ page: 4, markdown: '\n', blocks: [] });
  });
});

describe('SettledPages', () => {
  it('settles each page two pages on, never changes it, and ends with the whole layout, every page once', () => {
    const settled: PageMarkdown[] = [];
    const settling = new SettledPages('report.pdf', { furniture: 'drop', onPages: (pages) => settled.push(...pages) });
    const seen: number[][] = [];
    for (let n = 1; n <= PAGES.length; n++) {
      settling.delivered(
        PAGES.slice(0, n),
        PAGES.slice(0, n).map((p) => ({ page: p.number!, source: 'ocr' as const })),
      );
      seen.push(settled.map((page) => page.page));
    }
    // Page 1 needs pages 2 and 3 read, and to come out the same with both; and so on.
    expect(seen[1]).toEqual([]);
    expect(seen[2]).toEqual([1]);
    expect(seen[3]).toEqual([1, 2]);
    expect(seen[6]).toEqual([1, 2, 3, 4, 5]);

    const finished = settling.finish(PAGES);
    expect(finished.pageMarkdown.map((page) => page.page)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // The settled pages stand as delivered, and all of them joined are the file's Markdown.
    expect(finished.pageMarkdown.slice(0, 5)).toEqual(settled);
    expect(finished.pageMarkdown.map((page) => page.markdown).join('')).toBe(finished.markdown);
    // Here nothing later changed an earlier page: the same Markdown as laying out the whole file.
    const whole = withPageFurniture(laidOut(PAGES, 'report.pdf').document, 'drop');
    expect(finished.markdown).toBe(writeMarkdown(whole));
    expect(finished.markdown).not.toContain('ACME annual report');
  });

  it('keeps the running heads where they stand when the job keeps its furniture', () => {
    const settling = new SettledPages('report.pdf', { furniture: 'keep', onPages: () => undefined });
    for (let n = 1; n <= 4; n++)
      settling.delivered(
        PAGES.slice(0, n),
        PAGES.slice(0, n).map((p) => ({ page: p.number!, source: 'ocr' as const })),
      );
    const finished = settling.finish(PAGES.slice(0, 4));
    expect(finished.pageMarkdown[1].markdown.startsWith('\n\nACME annual report\n\n# Section 2')).toBe(true);
    expect(finished.markdown).toBe(
      writeMarkdown(withPageFurniture(laidOut(PAGES.slice(0, 4), 'report.pdf').document, 'keep')),
    );
  });
});
