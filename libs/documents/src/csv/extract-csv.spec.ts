import { DomainError } from '@docconv/contracts';
import iconv from 'iconv-lite';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMarkdown, readInline } from '@docconv/model/testing';
import { MAX_CSV_ROWS } from './csv-grid';
import { writeMarkdown } from '@docconv/model';
import { extractCsv as readCsv, inspectCsv, sniffDelimiter } from './extract-csv';

/** A CSV file's Markdown, as the one writer makes it from the file's document. */
const extractCsv = async (path: string, displayName: string, delimiter?: string): Promise<string> =>
  writeMarkdown(await readCsv(path, displayName, delimiter));

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'docconv-csv-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function file(name: string, bytes: Buffer | string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, bytes);
  return path;
}

/** The cells of the Markdown's one table, as a reader sees them. */
function cells(markdown: string): string[][] {
  const table = parseMarkdown(markdown).children[0];
  if (table?.type !== 'table') throw new Error(`not a table: ${markdown}`);
  return table.children.map((row) => row.children.map((cell) => readInline(cell).text));
}

describe('sniffDelimiter', () => {
  it.each([
    [',', 'a,b,c\n1,2,3\n4,5,6\n'],
    [';', 'a;b;c\n1,5;2,5;3\n4;5;6\n'],
    ['\t', 'name\tnote\nAnn\tLozano, Dr\nBo\tSmith, Jr\n'],
    ['|', 'a|b|c\n1|2|3\n'],
    [',', 'a,"b;c;d",e\n1,"2;3;4",5\n'],
    [';', 'a;"b,c,d";e\n1;"2,3,4";5\n'],
    [',', 'Industry\nAccounting/Finance\nHealthcare\n'],
    [',', 'a,b,c\n1,2,3\n4,5,6,7\n1,2,3\n'],
    [';', 'sep=;\na,b;c\n'],
  ])('finds %j', (delimiter, text) => {
    expect(sniffDelimiter(text)).toBe(delimiter);
  });
});

describe('extractCsv', () => {
  it('writes a table whose first row is the header, with no heading', async () => {
    const path = await file('comma.csv', 'Name,Age\r\nAnn,30\r\nBo,25');
    expect(await extractCsv(path, 'comma.csv')).toBe('| Name | Age |\n| --- | --- |\n| Ann | 30 |\n| Bo | 25 |\n');
  });

  it.each([
    ['semicolon', 'a;b\n1;2\n'],
    ['tab', 'a\tb\n1\t2\n'],
    ['pipe', 'a|b\n1|2\n'],
  ])('sniffs a %s delimiter', async (name, text) => {
    expect(cells(await extractCsv(await file(`${name}.csv`, text), `${name}.csv`))).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('uses the delimiter it is given (a TSV is tab-separated even if commas are more regular)', async () => {
    const path = await file('given.tsv', 'a,b\tc\n1,2\t3\n');
    expect(cells(await extractCsv(path, 'given.tsv', '\t'))).toEqual([
      ['a,b', 'c'],
      ['1,2', '3'],
    ]);
  });

  it('keeps a quoted delimiter, a doubled quote and a quoted line break in their cell', async () => {
    const path = await file('quoted.csv', 'name,company,note\n"Lozano, Dr","Say ""hi""","line 1\r\nline 2"\n');
    const markdown = await extractCsv(path, 'quoted.csv');
    expect(markdown).toContain('| Lozano, Dr | Say "hi" | line 1<br>line 2 |');
    expect(cells(markdown)[1]).toEqual(['Lozano, Dr', 'Say "hi"', 'line 1line 2']);
  });

  it('pads ragged rows to the widest, header included', async () => {
    const path = await file('ragged.csv', '1,2,3\na,b,c,d\na,b\n');
    expect(cells(await extractCsv(path, 'ragged.csv'))).toEqual([
      ['1', '2', '3', ''],
      ['a', 'b', 'c', 'd'],
      ['a', 'b', '', ''],
    ]);
  });

  it('keeps cell text literal: Markdown syntax and pipes do not leak into the table', async () => {
    const path = await file('syntax.csv', 'head\n**bold**\n<b>tag</b>\na|b\n# hash\n');
    expect(cells(await extractCsv(path, 'syntax.csv'))).toEqual([
      ['head'],
      ['**bold**'],
      ['<b>tag</b>'],
      ['a|b'],
      ['# hash'],
    ]);
  });

  it('reads Shift-JIS and CP949 files', async () => {
    const japanese = '名前,年齢,住所\r\n佐藤太郎,30,東京\r\n三木英子,25,大阪\r\n髙橋淳,35,名古屋\r\n';
    const sjis = await extractCsv(await file('sjis.csv', iconv.encode(japanese, 'cp932')), 'sjis.csv');
    expect(sjis).toContain('| 名前 | 年齢 | 住所 |');
    expect(sjis).toContain('| 髙橋淳 | 35 | 名古屋 |');
    const korean = await extractCsv(
      await file('cp949.csv', iconv.encode('이름,주소\n홍길동,서울\n', 'cp949')),
      'cp949.csv',
    );
    expect(cells(korean)).toEqual([
      ['이름', '주소'],
      ['홍길동', '서울'],
    ]);
  });

  it('reads a UTF-16 file with a byte order mark (what Excel saves as Unicode text)', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      iconv.encode('이름\t주소\r\n홍길동\t서울\r\n', 'utf-16le'),
    ]);
    expect(cells(await extractCsv(await file('unicode.txt', bytes), 'unicode.txt'))).toEqual([
      ['이름', '주소'],
      ['홍길동', '서울'],
    ]);
  });

  it('leaves out an Excel sep= line and blank lines', async () => {
    const path = await file('sep.csv', 'sep=;\n\na;b,c\n\n1;2,5\n');
    expect(cells(await extractCsv(path, 'sep.csv'))).toEqual([
      ['a', 'b,c'],
      ['1', '2,5'],
    ]);
  });

  it('writes nothing for an empty file', async () => {
    expect(await extractCsv(await file('empty.csv', ''), 'empty.csv')).toBe('');
  });

  it('refuses binary data', async () => {
    const path = await file('binary.csv', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0x08, 0]));
    await expect(extractCsv(path, 'binary.csv')).rejects.toMatchObject({ code: 'unsupported_format' });
    await expect(inspectCsv(path, 'binary.csv')).rejects.toMatchObject({ code: 'unsupported_format' });
  });

  it('applies the same limits as inspectCsv', async () => {
    const path = await file('wide.csv', `${','.repeat(20_000)}\n`);
    await expect(extractCsv(path, 'wide.csv')).rejects.toMatchObject({ code: 'payload_too_large' });
  });
});

describe('inspectCsv', () => {
  it('counts rows and the widest row', async () => {
    const path = await file('count.csv', 'a,b\n"x\ny",2,3\n\n4\n');
    expect(await inspectCsv(path, 'count.csv')).toEqual({ rows: 3, columns: 3 });
  });

  it('refuses 10^7 empty fields quickly', async () => {
    const path = await file('commas.csv', ','.repeat(10_000_000));
    const started = Date.now();
    const error = await inspectCsv(path, 'commas.csv').catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'payload_too_large',
      message: expect.stringMatching(
        /^commas\.csv has more than 16,384 columns.*the limit is 16,384 columns.*Split it/,
      ),
    });
  });

  it('refuses more than 1,048,576 rows', async () => {
    const path = await file('tall.csv', 'x\n'.repeat(MAX_CSV_ROWS + 1));
    await expect(inspectCsv(path, 'tall.csv')).rejects.toMatchObject({
      code: 'payload_too_large',
      message: expect.stringMatching(/^tall\.csv has more than 1,048,576 rows; the limit is 1,048,576 rows/),
    });
    await writeFile(path, 'x\n'.repeat(MAX_CSV_ROWS));
    expect(await inspectCsv(path, 'tall.csv')).toEqual({ rows: MAX_CSV_ROWS, columns: 1 });
  });

  it('refuses more than 2,000,000 cells', async () => {
    const path = await file('cells.csv', `${'a,'.repeat(999)}a\n`.repeat(2001));
    await expect(inspectCsv(path, 'cells.csv')).rejects.toMatchObject({
      code: 'payload_too_large',
      message: expect.stringMatching(/^cells\.csv has 2,001 rows of up to 1,000 columns, more than 2,000,000 cells/),
    });
  });

  it('reads a TSV with the delimiter it is given', async () => {
    const path = await file('given.tsv', 'a,b,c\td\n1,2,3\t4\n');
    expect(await inspectCsv(path, 'given.tsv', '\t')).toEqual({ rows: 2, columns: 2 });
  });
});

describe('the CSV document', () => {
  it('is one table of plain, unescaped cells, the first record its header row, from its file', async () => {
    const path = await file('doc.csv', 'Name,Note\n*Ann*,"line one\nline two"\nBo|B,<b>\n');
    expect((await readCsv(path, 'doc.csv')).blocks).toEqual([
      {
        type: 'table',
        headerRows: 1,
        from: { file: 'doc.csv' },
        rows: [
          [cell('Name'), cell('Note')],
          [
            cell('*Ann*'),
            {
              ...cell('line one'),
              content: [...cell('line one').content, { kind: 'break' }, ...cell('line two').content],
            },
          ],
          [cell('Bo|B'), cell('<b>')],
        ],
      },
    ]);
  });

  it('has no block when the file has no records', async () => {
    expect((await readCsv(await file('none.csv', ''), 'none.csv')).blocks).toEqual([]);
  });
});

function cell(text: string) {
  return { content: [{ kind: 'text', text }], rowspan: 1, colspan: 1 };
}
