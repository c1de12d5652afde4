import { CsvScanner } from './csv-scanner';

/** The records of `text` read with `delimiter`, the text given in pieces of `piece` characters. */
function records(text: string, delimiter = ',', piece = text.length || 1): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  const scanner = new CsvScanner(delimiter, {
    field: (field) => current.push(field),
    record: () => {
      out.push(current);
      current = [];
    },
  });
  for (let i = 0; i < text.length; i += piece) scanner.write(text.slice(i, i + piece));
  scanner.end();
  return out;
}

describe('CsvScanner', () => {
  it.each([
    [
      'plain fields',
      'a,b\n1,2',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    ['CRLF, CR and LF line ends', 'a\r\nb\rc\nd\r\n', [['a'], ['b'], ['c'], ['d']]],
    ['empty fields', ',a,,\n', [['', 'a', '', '']]],
    ['a quoted delimiter and a doubled quote', '"a,b","say ""hi"""', [['a,b', 'say "hi"']]],
    ['a quoted CRLF as one line break', '"line 1\r\nline 2",x', [['line 1\nline 2', 'x']]],
    ['text after a closing quote', '"a"b,c', [['ab', 'c']]],
    ['spaces around quotes', 'a, "b, c" ,d', [['a', 'b, c', 'd']]],
    ['a quote inside an unquoted field', "a\"b,'c'", [['a"b', "'c'"]]],
    ['blank lines and lines of spaces', '\na\n\n   \nb\n\n', [['a'], ['b']]],
    ['an empty quoted field', '""\n', [['']]],
    ['an unclosed quote', 'a,"b\nc', [['a', 'b\nc']]],
  ])('reads %s', (_, text, expected) => {
    expect(records(text)).toEqual(expected);
  });

  it('reads the same whatever pieces the text comes in', () => {
    const text = 'h1,"h,2"\r\n"multi\r\nline",x\r\n"say ""hi""" , y\r\n\r\nlast,"open';
    const whole = records(text);
    for (const piece of [1, 2, 3, 5]) expect(records(text, ',', piece)).toEqual(whole);
  });

  it('keeps spaces and tabs that are not the delimiter', () => {
    expect(records('a b\t c\td', '\t')).toEqual([['a b', ' c', 'd']]);
  });

  it('counts fields without keeping their text', () => {
    const fields: string[] = [];
    const counts: number[] = [];
    const scanner = new CsvScanner(
      ';',
      { field: (text) => fields.push(text), record: (count) => counts.push(count) },
      false,
    );
    scanner.write('a;"b;c";d\n1;2\n');
    scanner.end();
    expect(counts).toEqual([3, 2]);
    expect(fields.every((text) => text === '')).toBe(true);
  });

  it('counts quotes in the middle of fields, a sign of the wrong delimiter', () => {
    const scanner = new CsvScanner(',', { field: () => undefined, record: () => undefined }, false);
    scanner.write('a;"b,c";d\n');
    scanner.end();
    expect(scanner.strayQuotes).toBe(2);
  });
});
