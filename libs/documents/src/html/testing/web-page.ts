/**
 * A saved web page as sites make them, for tests: the site's header with its menu and search,
 * a cookie banner, a sidebar with a table of contents and links to other pages, a language list,
 * "edit" and "jump to" controls, a footer; and between them an article with a title, headings, a
 * paragraph text, a list, a table with spans, a figure with its caption, a link in a heading and
 * a search engine's tracking link. `CHROME` and `ARTICLE` are phrases of each.
 */
export const ARTICLE = [
  'Mallards are dabbling ducks',
  'Feeding',
  'They feed on the surface of the water',
  'seeds of aquatic plants',
  'Adult weight',
  '1.2 kg',
  'A drake in breeding plumage',
  'Further reading',
] as const;

export const CHROME = [
  'Jump to content',
  'Main page',
  'Search the site',
  'We use cookies',
  'Toggle the table of contents',
  'Related articles',
  'Deutsch',
  'Privacy policy',
  'edit section',
] as const;

const PARAGRAPH =
  'Mallards are dabbling ducks that breed throughout the temperate and subtropical Americas, Eurasia and North Africa. ' +
  'The male birds have a glossy green head and are grey on their wings and belly, while the females have mainly brown-speckled plumage. ' +
  'Both sexes have an area of white-bordered black or iridescent blue feathers called a speculum on their wings.';

const FEEDING =
  'They feed on the surface of the water or just below it, taking the seeds of aquatic plants, insects, worms and small molluscs. ' +
  'In winter they gather in large flocks on lakes and rivers, and in towns they readily take bread from people, which is not good for them.';

export function webPage(): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Mallard - The Bird Encyclopedia</title>
<link rel="canonical" href="https://birds.example.org/wiki/Mallard"></head>
<body>
<a class="skip" href="#content">Jump to content</a>
<header class="site-header"><a href="/">Main page</a>
  <form role="search"><input type="search" placeholder="Search the site"><button>Search the site</button></form>
  <nav><ul><li><a href="/random">Random article</a></li><li><a href="/help">Help</a></li></ul></nav>
</header>
<div class="cookie-banner" role="dialog"><p>We use cookies to improve your experience. <button>Accept</button></p></div>
<div class="page">
<aside class="sidebar">
  <nav class="toc"><p>Contents <button>Toggle the table of contents</button></p>
    <ul><li><a href="#feeding">1 Feeding</a></li><li><a href="#size">2 Size</a></li></ul></nav>
  <h2>Related articles</h2><ul><li><a href="/wiki/Teal">Teal</a></li><li><a href="/wiki/Pintail">Pintail</a></li></ul>
</aside>
<main id="content">
  <h1>Mallard</h1>
  <p>${PARAGRAPH}</p>
  <h2 id="feeding">Feeding <span class="mw-editsection">[<a href="/edit/1">edit section</a>]</span></h2>
  <p>${FEEDING}</p>
  <ul><li>seeds of aquatic plants</li><li>insects and worms</li><li>small molluscs</li></ul>
  <h2 id="size">Size</h2>
  <table><tr><th rowspan="2">Measure</th><th colspan="2">Value</th></tr><tr><th>Drake</th><th>Hen</th></tr>
  <tr><td>Adult weight</td><td>1.2 kg</td><td>1.0 kg</td></tr><tr><td>Wingspan</td><td>90 cm</td><td>85 cm</td></tr></table>
  <figure><img src="/img/drake.jpg" alt="Drake"><figcaption>A drake in breeding plumage</figcaption></figure>
  <h2><a href="https://www.bing.com/ck/a?!&amp;&amp;p=1&amp;u=a1${Buffer.from('https://ducks.example.com/reading').toString('base64url')}&amp;ntb=1">Further reading</a></h2>
  <p>${PARAGRAPH}</p>
</main>
</div>
<nav class="languages" aria-label="In other languages"><ul><li><a href="https://de.example.org/">Deutsch</a></li><li><a href="https://fr.example.org/">Français</a></li></ul></nav>
<footer><p>Text is available under a free licence. <a href="/privacy">Privacy policy</a></p></footer>
</body></html>`;
}
