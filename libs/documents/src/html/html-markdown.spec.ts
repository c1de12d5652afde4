import { parseMarkdown } from '@docconv/model/testing';
import { htmlDocument, htmlMarkdown, htmlReadableCharacters } from './html-markdown';

const page = (body: string, head = ''): string =>
  `<!DOCTYPE html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

describe('htmlDocument', () => {
  it('builds headings, paragraphs with plain runs, numbered items with their depth, and tables of runs, each from the file', () => {
    const html = page(
      '<h2>A &amp; B</h2><p>See <a href="https://example.com/x">*this*</a> <b>now</b></p>' +
        '<ol start="2"><li>Two<ul><li>Inner</li></ul></li></ol>' +
        '<table><tr><th>K</th><th colspan="2">V</th></tr><tr><td><p>a</p><p>b</p></td><td>1</td><td>2</td></tr></table>',
    );
    const from = { file: 'page.html' };
    expect(htmlDocument(html, 'page.html').blocks).toEqual([
      { type: 'heading', level: 2, content: [{ kind: 'text', text: 'A & B' }], from },
      {
        type: 'paragraph',
        content: [
          { kind: 'text', text: 'See ' },
          { kind: 'text', text: '*this*', link: 'https://example.com/x' },
          { kind: 'text', text: ' ' },
          { kind: 'text', text: 'now', bold: true },
        ],
        from,
      },
      { type: 'list_item', depth: 0, number: 2, list: 'list-1', content: [{ kind: 'text', text: 'Two' }], from },
      { type: 'list_item', depth: 1, list: 'list-2', content: [{ kind: 'text', text: 'Inner' }], from },
      {
        type: 'table',
        headerRows: 1,
        rows: [
          [
            { content: [{ kind: 'text', text: 'K' }], rowspan: 1, colspan: 1 },
            { content: [{ kind: 'text', text: 'V' }], rowspan: 1, colspan: 2 },
          ],
          [
            {
              content: [{ kind: 'text', text: 'a' }, { kind: 'break' }, { kind: 'text', text: 'b' }],
              rowspan: 1,
              colspan: 1,
            },
            { content: [{ kind: 'text', text: '1' }], rowspan: 1, colspan: 1 },
            { content: [{ kind: 'text', text: '2' }], rowspan: 1, colspan: 1 },
          ],
        ],
        from,
      },
    ]);
  });
});

describe('htmlDocument tables', () => {
  it('counts the leading rows of th or thead cells as header rows', () => {
    const headerRows = (table: string): unknown =>
      htmlDocument(page(table), 'p.html').blocks.map((block) =>
        block.type === 'table' ? block.headerRows : block.type,
      );
    expect(headerRows('<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>')).toEqual([0]);
    expect(
      headerRows('<table><thead><tr><td>a</td><td>b</td></tr></thead><tr><td>c</td><td>d</td></tr></table>'),
    ).toEqual([1]);
    expect(
      headerRows(
        '<table><tr><th>a</th><th></th></tr><tr><th>b</th><th>c</th></tr><tr><th>k</th><td>v</td></tr></table>',
      ),
    ).toEqual([2]);
  });
});

describe('htmlMarkdown', () => {
  it('writes headings h1–h6, paragraphs and line breaks', () => {
    const html = page(
      '<h1>Title</h1><p>First <br>line</p><h2>Two</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6>',
    );
    expect(htmlMarkdown(html)).toBe(
      '# Title\n\nFirst  \nline\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six\n',
    );
  });

  it('reads a heading written inside a paragraph as a heading', () => {
    expect(htmlMarkdown(page('<p>Before<h2 id="x"><span>Inside</span></h2>after</p>'))).toBe(
      'Before\n\n## Inside\n\nafter\n',
    );
  });

  it('writes bold, italic, strikethrough and code, without bold in headings', () => {
    const html = page(
      '<h2><b>Plain</b> heading</h2><p>A <strong>bold</strong>, <em>italic</em>, <del>gone</del>, <code>x = 1</code> and <kbd>Ctrl</kbd>.</p>',
    );
    expect(htmlMarkdown(html)).toBe('## Plain heading\n\nA **bold**, *italic*, ~~gone~~, `x = 1` and `Ctrl`.\n');
  });

  it('writes nested bulleted and numbered lists, with the start number and the paragraphs of an item as its lines', () => {
    const html = page(
      '<ul><li>One<ul><li>One.a</li><li>One.b</li></ul></li><li>Two</li></ul>' +
        '<ol start="3"><li>Three<ol><li>Inner</li></ol></li><li>Four<p>More about four</p></li></ol>',
    );
    expect(htmlMarkdown(html)).toBe(
      '- One\n    - One.a\n    - One.b\n- Two\n3. Three\n    1. Inner\n4. Four  \n   More about four\n',
    );
  });

  it('keeps adjacent lists of one kind apart with another marker', () => {
    expect(
      htmlMarkdown(page('<ol><li>a</li></ol><ol start="7"><li>b</li></ol><ul><li>c</li></ul><ul><li>d</li></ul>')),
    ).toBe('1. a\n7) b\n- c\n* d\n');
  });

  it('writes a description list as terms in bold with their definitions under them', () => {
    const html = page(
      '<dl><dt>Coffee</dt><dd>Black hot drink</dd><dt>Tea</dt><dd>Green</dd><dd>Or black</dd>' +
        '<dt>Nested</dt><dd><dl><dt>Inner term</dt><dd>Inner definition</dd></dl></dd></dl>',
    );
    expect(htmlMarkdown(html)).toBe(
      '- **Coffee**\n    - Black hot drink\n- **Tea**\n    - Green\n    - Or black\n' +
        '- **Nested**\n    - **Inner term**\n        - Inner definition\n',
    );
  });

  it('writes a table without spans as a GFM table, header from thead', () => {
    const html = page(
      '<table><thead><tr><th>Name</th><th>Qty</th></tr></thead><tbody>' +
        '<tr><td>Apples | pears</td><td>3</td></tr><tr><td><b>Kiwi</b></td><td>&nbsp;</td></tr></tbody></table>',
    );
    expect(htmlMarkdown(html)).toBe('| Name | Qty |\n| --- | --- |\n| Apples \\| pears | 3 |\n| **Kiwi** |  |\n');
  });

  it('writes a table with row and column spans as an HTML table', () => {
    const html = page(
      '<table><tr><th colspan="2">Period</th><th>Total</th></tr>' +
        '<tr><td rowspan="2">2025</td><td>Q1</td><td>10</td></tr><tr><td>Q2</td><td>20</td></tr></table>',
    );
    expect(htmlMarkdown(html)).toBe(
      '<table>\n<tr><th colspan="2">Period</th><th>Total</th></tr>\n' +
        '<tr><td rowspan="2">2025</td><td>Q1</td><td>10</td></tr>\n<tr><td>Q2</td><td>20</td></tr>\n</table>\n',
    );
  });

  it('folds a row that holds only cells continuing below into the next row', () => {
    const html = page(
      '<table><tr><th>Year</th><th>Month</th></tr><tr><th rowspan="3">2025</th></tr>' +
        '<tr><td>January</td></tr><tr><td>February</td></tr></table>',
    );
    expect(htmlMarkdown(html)).toBe(
      '<table>\n<tr><th>Year</th><th>Month</th></tr>\n<tr><td rowspan="2">2025</td><td>January</td></tr>\n' +
        '<tr><td>February</td></tr>\n</table>\n',
    );
  });

  it('flattens lists and paragraphs inside a cell to lines, and writes a table inside a cell as HTML inside it', () => {
    const lists = page(
      '<table><tr><th>A</th><th>B</th></tr><tr><td><ul><li>Pond</li><li>Marsh</li></ul></td><td><p>One</p><p>Two</p></td></tr></table>',
    );
    expect(htmlMarkdown(lists)).toBe('| A | B |\n| --- | --- |\n| • Pond<br>• Marsh | One<br>Two |\n');
    const nested = page(
      '<table><tr><th>A</th><th>B</th></tr><tr><td><table><tr><th>x</th><th>y</th></tr></table></td><td>z</td></tr></table>',
    );
    expect(htmlMarkdown(nested)).toBe(
      '<table>\n<tr><th>A</th><th>B</th></tr>\n<tr><td><table>\n<tr><th>x</th><th>y</th></tr>\n</table></td><td>z</td></tr>\n</table>\n',
    );
  });

  it('reads a layout table as the blocks of its cells, row by row: marked so, holding a table, or one row or column with nothing only data has', () => {
    const newsletter = page(
      '<table role="presentation"><tr><td><h2>Spring sale</h2></td><td><img src="https://example.com/logo.png" alt="Shop"></td></tr>' +
        '<tr><td colspan="2"><p>Everything half price.</p></td></tr></table>' +
        '<table><tr><td><table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>3</td></tr></table></td></tr>' +
        '<tr><td>Unsubscribe</td></tr></table>' +
        '<table><tr><td>Home</td><td>Shop</td><td>Contact</td></tr></table>' +
        '<table><tr><td>North</td><td>40</td></tr><tr><td>South</td><td>35</td></tr></table>',
    );
    expect(htmlMarkdown(newsletter)).toBe(
      '## Spring sale\n\n![Shop](https://example.com/logo.png)\n\nEverything half price.\n\n' +
        '| Item | Price |\n| --- | --- |\n| Tea | 3 |\n\nUnsubscribe\n\nHome\n\nShop\n\nContact\n\n' +
        '| North | 40 |\n| --- | --- |\n| South | 35 |\n',
    );
  });

  it('keeps a table whose grid is drawn (a border attribute, a style sheet bordering every cell) as a table, however it nests', () => {
    const nested =
      '<table><tr><td>A</td><td>B</td></tr><tr><td><table><tr><td>x</td><td>y</td></tr></table></td><td>z</td></tr></table>';
    const grid =
      '<table>\n<tr><th>A</th><th>B</th></tr>\n<tr><td><table>\n<tr><th>x</th><th>y</th></tr>\n</table></td><td>z</td></tr>\n</table>\n';
    expect(htmlMarkdown(page(nested, '<style>/* grid */ table, th, td { border: 1px solid black; }</style>'))).toBe(
      grid,
    );
    expect(htmlMarkdown(page(nested.replace(/<table>/g, '<table border="1">')))).toBe(grid);
    expect(htmlMarkdown(page(nested.replace(/<table>/g, '<table border>')))).toBe(grid);
    expect(htmlMarkdown(page(nested, '<style>td { border: 0; border-collapse: collapse }</style>'))).toBe(
      'A\n\nB\n\nx\n\ny\n\nz\n',
    );
    expect(
      htmlMarkdown(
        page(
          '<table border="0"><tr><td style="border-bottom: thick solid">Title</td></tr><tr><td>Body</td></tr></table>',
        ),
      ),
    ).toBe('Title\n\nBody\n');
  });

  it('writes a one-cell layout table as its content', () => {
    expect(htmlMarkdown(page('<table><tr><td><h2>News</h2><p>Hello</p></td><td></td></tr></table>'))).toBe(
      '## News\n\nHello\n',
    );
  });

  it('writes preformatted text as a fenced code block with its language', () => {
    const html = page(
      '<pre><code class="language-python">\n    def f():\n        return "```"\n</code></pre><pre>plain  text</pre>',
    );
    expect(htmlMarkdown(html)).toBe('````python\ndef f():\n    return "```"\n````\n\n```\nplain  text\n```\n');
  });

  it('writes quotes, rules, and pictures without a web address as their alternative text', () => {
    const html = page(
      '<blockquote><p>Quoted</p><p>Twice</p></blockquote><hr><img src="a.png" alt="A chart"><img src="b.png">',
    );
    expect(htmlMarkdown(html)).toBe('> Quoted\n>\n> Twice\n\n---\n\nA chart\n');
  });

  it('keeps a picture standing alone at its web address (linked where it is a link), a picture in a line of text as its alternative text, and no tracking pixel', () => {
    const html = page(
      '<figure><img src="//cdn.example.com/drake.jpg" alt="A drake"><figcaption>A drake in spring</figcaption></figure>' +
        '<table><tr><th>Duck</th><th>Photo</th></tr>' +
        '<tr><td>Teal</td><td><a href="https://example.com/teal-large.jpg"><img src="https://example.com/teal.jpg" alt="Teal thumbnail"></a></td></tr>' +
        '<tr><td>Smew</td><td><img src="https://example.com/smew.jpg"></td></tr></table>' +
        '<p>Energy is <img src="https://example.com/e.png" alt="E=mc^2"> by definition.</p>' +
        '<p><img src="data:image/png;base64,AAAA" alt="An inline chart"></p>' +
        '<p>Read on<img src="https://tracker.example.com/p.gif" width="1" height="1"></p>',
    );
    expect(htmlMarkdown(html)).toBe(
      '![A drake](https://cdn.example.com/drake.jpg)\n\nA drake in spring\n\n' +
        '| Duck | Photo |\n| --- | --- |\n' +
        '| Teal | [![Teal thumbnail](https://example.com/teal.jpg)](https://example.com/teal-large.jpg) |\n' +
        '| Smew | ![](https://example.com/smew.jpg) |\n\n' +
        'Energy is E=mc^2 by definition.\n\nAn inline chart\n\nRead on\n',
    );
  });

  it('leaves out scripts, styles, templates, noscript, comments, the head and hidden elements', () => {
    const html = page(
      '<script>alert("x")</script><style>p{}</style><template><p>T</p></template><noscript>N</noscript>' +
        '<!-- comment --><p hidden>H</p><div style="display: none">D</div><p>Shown</p>',
      '<title>Head title</title><script>var s = 1;</script>',
    );
    expect(htmlMarkdown(html)).toBe('Shown\n');
  });

  it('keeps relative links as their text and links addresses a reader can follow', () => {
    const html = page(
      '<p><a href="/docs/page.html">Docs</a>, <a href="#top">top</a> and <a href="https://example.com/a b">site</a>.</p>',
    );
    expect(htmlMarkdown(html)).toBe('Docs, top and [site](https://example.com/a%20b).\n');
  });

  it('resolves relative links against the base address the document gives', () => {
    const html = page(
      '<p><a href="/wiki/Duck">Duck</a></p>',
      '<link rel="canonical" href="https://en.example.org/wiki/Goose">',
    );
    expect(htmlMarkdown(html)).toBe('[Duck](https://en.example.org/wiki/Duck)\n');
  });

  it('decodes entities and escapes what would read as Markdown', () => {
    const html = page('<p>1. Not a list &amp; &lt;b&gt; &eacute; &#x263A;</p><p># hash *star* [a](b)</p>');
    const markdown = htmlMarkdown(html);
    expect(markdown).toBe('1\\. Not a list & \\<b> é ☺\n\n\\# hash \\*star\\* [a\\](b)\n');
    expect(parseMarkdown(markdown).children.map((node) => node.type)).toEqual(['paragraph', 'paragraph']);
  });

  it('removes control characters', () => {
    expect(htmlMarkdown(page('<p>a\u0001b\u0007c\u009fd</p>'))).toBe('abcd\n');
  });

  it('splits a paragraph at a blank line made of two line breaks', () => {
    expect(htmlMarkdown('Dear Ann,<br><br>Thanks for the notes.<br>Bob')).toBe(
      'Dear Ann,\n\nThanks for the notes.  \nBob\n',
    );
  });

  it('reads XHTML self-closing tags as XML does', () => {
    const xhtml =
      '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title/></head><body><p>One<a id="p1"/> two</p><div/><p>Three</p></body></html>';
    expect(htmlMarkdown(xhtml, { xhtml: true })).toBe('One two\n\nThree\n');
  });

  it('never expands the entities of a document type declaration (billion laughs)', () => {
    const entities = ['<!ENTITY a "aaaaaaaaaa">'];
    for (let i = 1; i < 10; i++) {
      const previous = String.fromCharCode(96 + i);
      entities.push(`<!ENTITY ${String.fromCharCode(97 + i)} "${`&${previous};`.repeat(10)}">`);
    }
    const html = `<!DOCTYPE html [${entities.join('\n')}]><html><body><p>&j;</p></body></html>`;
    const started = Date.now();
    const markdown = htmlMarkdown(html);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(markdown).toBe('&j;\n');
  });

  it('reads markup nested thousands deep quickly, keeping its text', () => {
    const depth = 20_000;
    const started = Date.now();
    expect(htmlMarkdown(`${'<div><span>'.repeat(depth)}deep text${'</span></div>'.repeat(depth)}`)).toBe('deep text\n');
    const unclosed = Array.from({ length: 5000 }, (_, i) => `<b id="${i}"><p>x`).join('');
    expect(htmlMarkdown(unclosed)).toContain('**x**');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('writes Markdown that reads back as the same structure', () => {
    const markdown = htmlMarkdown(
      page('<h1>T</h1><ul><li>a<ol><li>b</li></ol></li></ul><table><tr><th>h</th></tr><tr><td>c</td></tr></table>'),
    );
    expect(parseMarkdown(markdown).children.map((node) => node.type)).toEqual(['heading', 'list', 'table']);
  });
});

describe('htmlReadableCharacters', () => {
  it('counts the visible text, whitespace runs as one, blocks apart', () => {
    const html = page(
      '<h1>Title</h1><p>Some   <b>bold</b>\n text</p><script>ignored()</script><!-- no --><p hidden>no</p>',
      '<title>Not counted</title><style>p { }</style>',
    );
    expect(htmlReadableCharacters(html)).toBe('Title Some bold text'.length);
  });
});
