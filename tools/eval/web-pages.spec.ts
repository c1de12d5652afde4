import { htmlMarkdown } from '../../libs/documents/src/html/html-markdown';
import { webPage } from '../../libs/documents/src/html/testing/web-page';
import { webPageScore } from './web-pages';

describe('webPageScore', () => {
  it('sees the article kept and the site gone in the article read, the site left in the whole page', () => {
    const page = webPage();
    const main = webPageScore(page, htmlMarkdown(page, { content: 'main' }));
    const full = webPageScore(page, htmlMarkdown(page, { content: 'full' }));
    expect(main).toMatchObject({ articleKept: 1, siteGone: 1, paragraphs: 3 });
    expect(full?.articleKept).toBe(1);
    // all but the footer's "Privacy policy", which shares its line with the licence note
    expect(full?.siteGone).toBeCloseTo(1 / (full?.siteItems ?? 1));
    expect(main?.siteItems).toBeGreaterThanOrEqual(8);
  });

  it('sees an article lost, and a site item written as a line of its own', () => {
    const page = webPage();
    const onlyTitle = webPageScore(page, '# Mallard\n\n- Random article\n\nHelp is a word in a sentence.\n');
    expect(onlyTitle?.articleKept).toBe(0);
    // "Random article" is a line of its own; "Help" only inside a sentence does not count as left
    expect(onlyTitle?.siteGone).toBeCloseTo(1 - 1 / (onlyTitle?.siteItems ?? 1));
  });

  it('has nothing to say of a fragment', () => {
    expect(webPageScore('<h1>Notes</h1><p>Text.</p>', '# Notes\n\nText.\n')).toBeUndefined();
  });
});
