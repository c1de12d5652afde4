import type { Root } from 'mdast';
import { escapeHeadingText, escapeInlineSyntax, escapeLineStart, escapeText } from './escape';
import { blocksOf, parseMarkdown, readInline } from './testing/read-back';

/** Text Markdown would read as syntax if it were written as is. */
const TRICKY = [
  '2020. The year',
  '1) first',
  '1.',
  '3)',
  '# not heading',
  '###### six',
  '#hashtag',
  '> quote',
  '>no space',
  '- dash',
  '-',
  '+ plus',
  '* star',
  '***',
  '---',
  '- - -',
  '___',
  '===',
  '=',
  '```js',
  '~~~',
  '~~~ a ~~ b',
  'a < b',
  '<div>',
  'Ann <ann@example.com>',
  '<https://example.com/a?b=c> and a<b, c>d',
  '</p> closes',
  '<!-- comment -->',
  '<https://x>',
  '<mail@example.com>',
  '&amp;',
  '&#38; and &#x26;',
  'AT&T',
  '[link](x)',
  '[a][b] and [c][]',
  '[^1]',
  '[^1]: note',
  '[label]: /url',
  '![img](x)',
  '`code`',
  'C:\\path\\to',
  'ends with \\',
  '\\*',
  '\\<div>',
  'snake_case',
  '__init__',
  '2 * 3',
  '**bold**',
  '*em*',
  '~~struck~~',
  '1~2 and 3~4',
  '| a | b |',
  '|---|---|',
  '-|-',
  ':-:|',
];

/** Text that needs no escape at all. */
const PLAIN = [
  'Hello, world.',
  'Q3 [draft]',
  'snake_case_name',
  'see [1], [2] and (3)',
  'AT&T and R&D',
  'x > y, 3 < 4',
  '5 * 3 = 15',
  'C# and F#',
  '600km~800km',
  '1.5 million',
  '2020 was the year',
  'a | b',
];

/** A line of literal text as a paragraph's line, every escape applied. */
function line(text: string): string {
  return escapeLineStart(escapeText(text));
}

describe('escapeText and escapeLineStart, as CommonMark and GFM read them back', () => {
  it.each(TRICKY)('keep %j a paragraph of its own text', (input) => {
    expect(blocksOf(parseMarkdown(line(input)))).toEqual([`paragraph: ${input}`]);
  });

  it.each(TRICKY)('keep %j text as the second line of a paragraph', (input) => {
    expect(blocksOf(parseMarkdown(`Intro\n${line(input)}`))).toEqual([`paragraph: Intro\n${input}`]);
  });

  it.each(TRICKY)('keep %j text in a bullet, a numbered item and a table cell', (input) => {
    const item = (root: Root) => (root.children[0].type === 'list' ? blocksOf(root.children[0].children[0]) : []);
    expect(item(parseMarkdown(`- ${line(input)}`))).toEqual([`paragraph: ${input}`]);
    expect(item(parseMarkdown(`1. ${line(input)}`))).toEqual([`paragraph: ${input}`]);
    const table = parseMarkdown(`| head |\n| --- |\n| ${escapeText(input).replace(/\|/g, '\\|')} |`).children[0];
    expect(table.type === 'table' ? readInline(table.children[1]) : undefined).toEqual({ text: input, syntax: [] });
  });

  it.each([...TRICKY, ...PLAIN, 'Item #', '#', 'C#'])('keep %j the text of a heading', (input) => {
    expect(blocksOf(parseMarkdown(`## ${escapeHeadingText(escapeText(input))}`))).toEqual([`heading2: ${input}`]);
  });

  it.each(PLAIN)('leave %j as written', (input) => {
    expect(line(input)).toBe(input);
    expect(escapeHeadingText(escapeText(input))).toBe(input);
    expect(blocksOf(parseMarkdown(input))).toEqual([`paragraph: ${input}`]);
  });

  it('escapes the mark that makes the syntax and nothing else', () => {
    expect(line('2020. The year')).toBe('2020\\. The year');
    expect(line('1) first')).toBe('1\\) first');
    expect(line('# not heading')).toBe('\\# not heading');
    expect(line('+ plus')).toBe('\\+ plus');
    expect(line('===')).toBe('\\===');
    expect(line('```js')).toBe('\\`\\`\\`js');
    expect(line('~~~')).toBe('\\~\\~\\~');
    expect(line('[label]: /url')).toBe('\\[label]: /url');
    expect(line('[link](x)')).toBe('[link\\](x)');
    expect(line('![img](x)')).toBe('![img\\](x)');
    expect(line('[^1]')).toBe('\\[^1]');
    expect(line('a < b and <div>')).toBe('a < b and \\<div>');
    expect(line('Ann <ann@example.com>, <https://x.org>')).toBe('Ann \\<ann@example.com\\>, \\<https://x.org>');
    expect(line('a<b, c>d <m:r> <x@y')).toBe('a\\<b, c>d \\<m:r> \\<x@y');
    expect(line('&amp; AT&T')).toBe('\\&amp; AT&T');
    expect(line('C:\\path\\to')).toBe('C:\\path\\to');
    expect(line('**bold**')).toBe('\\*\\*bold\\*\\*');
    expect(escapeHeadingText('Item #')).toBe('Item \\#');
  });

  it('judges the end of a piece by the text that follows it', () => {
    const pieces = (...texts: string[]) =>
      texts.map((text, i) => escapeInlineSyntax(text, texts.slice(i + 1).join(''))).join('');
    for (const texts of [
      ['[link]', '(x)'],
      ['see [', '^1]'],
      ['a <', 'div>'],
      ['&', 'amp;'],
      ['back\\', '*slash'],
    ]) {
      expect(blocksOf(parseMarkdown(pieces(...texts)))).toEqual([`paragraph: ${texts.join('')}`]);
    }
    expect(escapeInlineSyntax('[link]')).toBe('[link]');
  });

  it('leaves a four-space indent alone: extractors trim lines, since no escape undoes indented code', () => {
    expect(escapeLineStart('   # heading')).toBe('   \\# heading');
    expect(escapeLineStart('    # code')).toBe('    # code');
  });
});
