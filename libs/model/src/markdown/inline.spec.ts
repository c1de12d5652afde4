import { formattedSpans, leftoverDelimiters } from './testing/read-back';
import { escapeText } from './escape';
import { renderInline, type Piece } from './inline';

const text = (value: string, style: Partial<{ bold: boolean; italic: boolean; strike: boolean }> = {}): Piece => ({
  kind: 'text',
  text: value,
  bold: false,
  italic: false,
  strike: false,
  ...style,
});

describe('renderInline, as a CommonMark parse reads it', () => {
  it('closes bold before a Korean particle and keeps quotation marks out when letters touch them', () => {
    const markdown = renderInline([
      text('새로운 '),
      text('이름', { bold: true }),
      text('으로'),
      text('“누리”', { bold: true }),
      text('가 선정'),
    ]);
    expect(markdown).toBe('새로운 **이름**으로“**누리**”가 선정');
    expect(formattedSpans(markdown)).toEqual([
      ['새로운 ', ''],
      ['이름', 'b'],
      ['으로“', ''],
      ['누리', 'b'],
      ['”가 선정', ''],
    ]);
    expect(leftoverDelimiters(markdown)).toEqual([]);
  });

  it('moves spaces out of the delimiters and nests bold and italic', () => {
    const markdown = renderInline([
      text('Say'),
      text(' loudly ', { bold: true }),
      text('and ', { bold: true, italic: true }),
      text('clearly', { italic: true }),
      text('.'),
    ]);
    expect(markdown).toBe('Say **loudly *and*** *clearly*.');
    expect(formattedSpans(markdown)).toEqual([
      ['Say ', ''],
      ['loudly ', 'b'],
      ['and', 'bi'],
      [' ', ''],
      ['clearly', 'i'],
      ['.', ''],
    ]);
    expect(leftoverDelimiters(markdown)).toEqual([]);
  });

  it('writes emphasis inside a link and before a letter after it', () => {
    const link = { id: 1, href: 'https://example.com/' };
    const markdown = renderInline([text('see '), { ...text('“the docs”', { bold: true }), link }, text('를 참고')]);
    expect(markdown).toBe('see [**“the docs”**](https://example.com/)를 참고');
    expect(formattedSpans(markdown)).toEqual([
      ['see ', ''],
      ['“the docs”', 'b'],
      ['를 참고', ''],
    ]);
  });

  it('drops a strikethrough that would meet bold inside a word, and keeps it elsewhere', () => {
    const markdown = renderInline([
      text('un'),
      text('done', { bold: true, strike: true }),
      text('ne '),
      text('gone', { strike: true }),
    ]);
    expect(formattedSpans(markdown)).toEqual([
      ['un', ''],
      ['done', 'b'],
      ['ne ', ''],
      ['gone', 's'],
    ]);
    expect(leftoverDelimiters(markdown)).toEqual([]);
  });

  it('keeps literal asterisks, underscores and tildes as text next to emphasis', () => {
    const markdown = renderInline([text('*note*', { italic: true }), text(' snake_case 5 * 3 1~2, 3~4 '), text('**')]);
    expect(formattedSpans(markdown)).toEqual([
      ['*note*', 'i'],
      [' snake_case 5 * 3 1~2, 3~4 **', ''],
    ]);
    expect(leftoverDelimiters(markdown, '*note* snake_case 5 * 3 1~2, 3~4 **')).toEqual([]);
    expect(escapeText('*not emphasis* and __init__')).toBe('\\*not emphasis\\* and \\_\\_init\\_\\_');
  });

  it('escapes single tildes when a link separates two that could pair', () => {
    const link = { id: 1, href: 'https://example.com/' };
    const markdown = renderInline([text('1~2 '), { ...text('see'), link }, text(' 3~4')]);
    expect(markdown).toBe('1\\~2 [see](https://example.com/) 3\\~4');
    expect(leftoverDelimiters(markdown, '~~')).toEqual([]);
    expect(renderInline([text('600km~800km')])).toBe('600km~800km');
  });
});
