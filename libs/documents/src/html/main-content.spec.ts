import { htmlMarkdown, htmlReadableCharacters } from './html-markdown';
import { hasSiteChrome } from './main-content';
import { bodyOf, parseHtml } from './html-dom';
import { ARTICLE, CHROME, webPage } from './testing/web-page';

describe('the main content of a web page', () => {
  it('keeps the article under its title, without the site around it', () => {
    const markdown = htmlMarkdown(webPage(), { content: 'main' });
    expect(markdown.startsWith('# Mallard\n\nMallards are dabbling ducks')).toBe(true);
    for (const phrase of ARTICLE) expect(markdown).toContain(phrase);
    expect(CHROME.filter((phrase) => markdown.includes(phrase))).toEqual([]);
    // the table keeps its spans, the heading its link, unwrapped from the search engine's redirect
    expect(markdown).toContain('<th rowspan="2">Measure</th><th colspan="2">Value</th>');
    expect(markdown).toContain('## [Further reading](https://ducks.example.com/reading)');
    expect(markdown).toMatch(/^## Feeding$/m);
  });

  it('keeps everything with full', () => {
    const markdown = htmlMarkdown(webPage(), { content: 'full' });
    for (const phrase of [...ARTICLE, ...CHROME]) expect(markdown).toContain(phrase);
  });

  it('prices what it reads', () => {
    const main = htmlReadableCharacters(webPage(), { content: 'main' });
    const full = htmlReadableCharacters(webPage(), { content: 'full' });
    expect(main).toBeLessThan(full);
    expect(main).toBeGreaterThan(1000);
  });

  it('reads a fragment whole: it has no site to take away', () => {
    const fragment = `<h1>Notes</h1><p>${'A short note that is not a web page. '.repeat(3)}</p><article><header><h2>Kept</h2></header></article><ul><li>one</li></ul>`;
    expect(hasSiteChrome(bodyOf(parseHtml(fragment)))).toBe(false);
    expect(htmlMarkdown(fragment, { content: 'main' })).toBe(htmlMarkdown(fragment, { content: 'full' }));
  });

  it('tells a page from a fragment by its site: navigation, sidebars, a page header or footer', () => {
    const chrome = (html: string) => hasSiteChrome(bodyOf(parseHtml(html)));
    expect(chrome('<nav><a href="/">Home</a></nav><p>x</p>')).toBe(true);
    expect(chrome('<div role="navigation">menu</div><p>x</p>')).toBe(true);
    expect(chrome('<aside>more</aside><p>x</p>')).toBe(true);
    expect(chrome('<footer>© site</footer><p>x</p>')).toBe(true);
    expect(chrome('<article><header><h1>Title</h1></header><p>x</p><footer>By Ann</footer></article>')).toBe(false);
    expect(chrome('<p>x</p><template><nav>not shown</nav></template>')).toBe(false);
    // a page laid out before landmark elements names its regions: two kinds make a site
    expect(chrome('<div id="menu"><a href="/">Home</a></div><div class="contentWithSidebar"><p>x</p></div>')).toBe(
      true,
    );
    expect(chrome('<table class="TopNavigation"><tr><td>x</td></tr></table><div class="Header">y</div>')).toBe(true);
    expect(chrome('<p>x</p><p class="footer-note">Figures in thousands.</p>')).toBe(false);
  });

  it('reads a page whole when no article of some length is found in it', () => {
    const menuOnly = '<nav><ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul></nav><p>Short.</p>';
    expect(htmlMarkdown(menuOnly, { content: 'main' })).toBe(htmlMarkdown(menuOnly, { content: 'full' }));
  });
});
