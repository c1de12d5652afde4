import { checkHashes, recordedHashes, type Differences } from './markdown-hashes/check';

/** Nested lists: the writer's one list layout, which every format shares. */
const NESTED_LISTS =
  'nested list items are indented four columns, the layout the Markdown writer gives every format (a nested item then sits under `10.` as well as under `-`)';

/**
 * The HTML and EPUB readers on the document model: for every dev-set input of their formats the
 * document's Markdown is byte for byte the Markdown today's readers recorded
 * (markdown-hashes/<format>.json), but for the inputs listed here with why the new Markdown is
 * better. An input listed here whose Markdown no longer differs fails too, so the list stays true.
 */
const DIFFERENCES: Record<string, Differences> = {
  html: {
    'html/example_01.html':
      'a bulleted list, a numbered list and a list numbered from 42 follow each other on consecutive lines, as the items of every format do; the change of marker keeps them three lists',
    'html/example_03.html': `${NESTED_LISTS}; a numbered list after a bulleted one follows it on the next line`,
    'html/html_code_snippets.html':
      'a code block inside a list item follows the item at the left margin: the model has no blocks inside items, and the code is the same code block',
    'html/html_description_list.html': NESTED_LISTS,
    'html/html_nested_block_in_list_item.html': `${NESTED_LISTS}; the paragraphs of an item are lines of that item (the list stays tight) rather than a loose list item`,
    'html/html_rich_table_cells.html':
      "a thumbnail that links to the full-size photo is that picture, linked, at its web address, rather than its alternative text posing as the link's text",
    'html/hyperlink_03.html': `${NESTED_LISTS}; two nested lists side by side stay apart by their marker rather than a blank line`,
    'html/wiki_duck.html': `${NESTED_LISTS}; and since html_content=main is the default, a whole web page is read as its article under its title: the contents, language list, menus, "Toggle" controls, categories and footer are gone`,
  },
  epub: {},
};

describe.each(Object.keys(DIFFERENCES))('the %s reader on the document model', (format) => {
  it('writes every dev-set input as it was recorded, or as listed in DIFFERENCES', async () => {
    const expected = Object.fromEntries(
      Object.keys(recordedHashes(format)).map((path) => [path, path in DIFFERENCES[format] ? 'different' : 'same']),
    );
    expect(await checkHashes(format)).toEqual(expected);
  });
});
