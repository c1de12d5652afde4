import { DomainError } from '@docconv/contracts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeHwp } from '../../../../test/support/fixtures';
import { formattedSpans, leftoverDelimiters } from '../markdown/testing/read-back';
import { cleanHwpMarkdown, extractHwp } from './extract-hwp';

const SECTOR = 512;

/**
 * The fixture's compound file, padded to the sectors its allocation table declares (the cfb
 * writer stops at the last used sector; Hangul and hwpjs expect the whole table's worth).
 */
async function completeHwp(pages: string[][]): Promise<Buffer> {
  const file = await makeHwp(pages);
  const declared = SECTOR + 128 * SECTOR * Math.ceil((file.length - SECTOR) / (128 * SECTOR));
  return Buffer.concat([file, Buffer.alloc(Math.max(0, declared - file.length))]);
}

/** Sets the FileHeader's property flags (bit 1: password, bit 2: distribution). */
function withFlags(file: Buffer, flags: number): Buffer {
  const copy = Buffer.from(file);
  copy.writeUInt32LE(flags, copy.indexOf('HWP Document File', 0, 'latin1') + 36);
  return copy;
}

async function expectRefused(promise: Promise<unknown>, name: string, reason: RegExp): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe('file_processing_failed');
  expect((error as DomainError).message).toContain(`${name} could not be read as an HWP document: `);
  expect((error as DomainError).message).toMatch(reason);
}

describe('extractHwp', () => {
  let folder: string;
  const write = async (name: string, data: Buffer | string): Promise<string> => {
    const path = join(folder, name);
    await writeFile(path, data);
    return path;
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'docconv-hwp-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('keeps Korean paragraphs intact and in order, without the converter preamble', async () => {
    const paragraphs = ['첫째 문단: 삼강오륜은 윤리 도덕입니다.', '둘째 문단 — 군위신강', 'Third paragraph, 셋째'];
    const markdown = await extractHwp(await write('order.hwp', await completeHwp([paragraphs])), 'order.hwp');

    expect(markdown).toBe(`${paragraphs.join('\n\n')}\n`);
    expect(markdown).not.toContain('HWP 문서');
    expect(markdown).not.toContain('버전');
    expect(markdown.normalize('NFC')).toBe(markdown);
  });

  it('reads every page of the saved layout', async () => {
    const markdown = await extractHwp(
      await write('pages.hwp', await completeHwp([['가나다 첫 쪽'], ['라마바 둘째 쪽'], ['사아자 셋째 쪽']])),
      'pages.hwp',
    );
    const positions = ['가나다 첫 쪽', '라마바 둘째 쪽', '사아자 셋째 쪽'].map((t) => markdown.indexOf(t));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('refuses a file that is not an HWP document', async () => {
    await expectRefused(
      extractHwp(await write('text.hwp', '이것은 한글 문서가 아닙니다'), 'text.hwp'),
      'text.hwp',
      /CFB|too small/i,
    );
  });

  it('refuses a compound file cut short', async () => {
    const truncated = (await completeHwp([['잘린 파일']])).subarray(0, 3 * SECTOR);
    await expectRefused(extractHwp(await write('cut.hwp', truncated), 'cut.hwp'), 'cut.hwp', /\S/);
  });

  it('refuses a missing file', async () => {
    const error = extractHwp(join(folder, 'absent.hwp'), 'absent.hwp');
    await expectRefused(error, 'absent.hwp', /could not be opened/);
    await expect(error).rejects.not.toThrow(folder);
  });

  it('refuses password-protected and distribution-locked files instead of printing their scrambled bodies', async () => {
    const plain = await completeHwp([['잠긴 문서']]);
    await expectRefused(
      extractHwp(await write('locked.hwp', withFlags(plain, 0b011)), '잠긴.hwp'),
      '잠긴.hwp',
      /password-protected\. Save an unprotected copy/,
    );
    await expectRefused(
      extractHwp(await write('dist.hwp', withFlags(plain, 0b101)), 'dist.hwp'),
      'dist.hwp',
      /distribution-locked/,
    );
  });
});

describe('cleanHwpMarkdown', () => {
  it('drops the title and version lines hwpjs writes about the file', () => {
    expect(
      cleanHwpMarkdown('# HWP 문서\n\n\n\n**버전**: 5.01.00.01\n\n\n\n**용지 크기**: 210.00mm x 297.00mm\n\n본문'),
    ).toBe('본문');
  });

  it('keeps a heading of the document itself that follows the preamble', () => {
    expect(cleanHwpMarkdown('# HWP 문서\n\n# 삼강오륜\n\n본문')).toBe('# 삼강오륜\n\n본문');
  });

  it('collapses runs of blank lines', () => {
    expect(cleanHwpMarkdown('가\n\n\n\n\n나\n  \n\t\n다')).toBe('가\n\n나\n\n다');
  });

  it('drops pictures, whether referenced or embedded as base64', () => {
    const markdown = cleanHwpMarkdown(
      '![이미지](image-0)\n\n앞 ![그림](data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==) 뒤\n\n| <img src="data:image/jpeg;base64,/9j/4AAQ"> | 셀 |\n|---|---|',
    );
    expect(markdown).not.toMatch(/base64|image-0|!\[|<img/);
    expect(markdown).toMatch(/^앞 +뒤$/m);
    expect(markdown).toContain('|  | 셀 |');
  });

  it('gives every row of a table the same cells, trimmed, line breaks inside cells kept', () => {
    const markdown = cleanHwpMarkdown(
      [
        '앞 문단',
        '| 보도일시<br> | 2018. 9. 4.(화)  <br> |',
        '|---|---|',
        '| 배포일시<br> | 09:00<br> | 담당부서<br> | 거대공공연구정책과<br> |',
        '| A1<br> | B10<br> B11<br> |',
        '뒤 문단',
      ].join('\n'),
    );
    const lines = markdown.split('\n');
    expect(lines).toEqual([
      '앞 문단',
      '',
      '| 보도일시 | 2018. 9. 4.(화) |  |  |',
      '| --- | --- | --- | --- |',
      '| 배포일시 | 09:00 | 담당부서 | 거대공공연구정책과 |',
      '| A1 | B10<br>B11 |  |  |',
      '',
      '뒤 문단',
    ]);
    const rows = lines.filter((l) => l.startsWith('|'));
    const cells = rows.map((r) => r.replace(/\\\|/g, '').split('|').length);
    expect(new Set(cells).size).toBe(1);
  });

  it('adds the delimiter row a table without one needs', () => {
    expect(cleanHwpMarkdown('| 가 | 나 |\n| 다 | 라 |')).toBe('| 가 | 나 |\n| --- | --- |\n| 다 | 라 |');
  });

  it('joins bold runs written back to back and moves spaces out of the markers', () => {
    expect(cleanHwpMarkdown('개발 중인 **한국형발사체****(KSLV-2)****의 새로운 이름**으로')).toBe(
      '개발 중인 **한국형발사체(KSLV-2)의 새로운 이름**으로',
    );
    expect(cleanHwpMarkdown('공모에는** 약 6,300여명의 ****국민이 참여**하여')).toBe(
      '공모에는 **약 6,300여명의 국민이 참여**하여',
    );
  });

  it('keeps page breaks as rules with blank lines around them', () => {
    expect(cleanHwpMarkdown('첫 쪽\n---\n둘째 쪽')).toBe('첫 쪽\n\n---\n\n둘째 쪽');
  });
});

describe('cleanHwpMarkdown emphasis, as a CommonMark parse reads it', () => {
  /**
   * Cleans hwpjs Markdown, checks that the parse shows no delimiter as text (`literal` holds the
   * `*`, `_` and `~` the reader should see, none by default) and returns its formatted spans.
   */
  function readBack(hwpjs: string, literal = ''): [string, string][] {
    const markdown = cleanHwpMarkdown(hwpjs);
    expect(leftoverDelimiters(markdown, literal)).toEqual([]);
    return formattedSpans(markdown);
  }

  it('closes bold before a Korean particle and keeps a quotation mark out when a letter touches it', () => {
    const line = '개발 중인 **한국형발사체****(KSLV-2)****의 새로운 이름**으로**“누리”가 선정**되었다고 밝혔다.';
    expect(cleanHwpMarkdown(line)).toBe(
      '개발 중인 **한국형발사체(KSLV-2)의 새로운 이름**으로“**누리”가 선정**되었다고 밝혔다.',
    );
    expect(readBack(line)).toEqual([
      ['개발 중인 ', ''],
      ['한국형발사체(KSLV-2)의 새로운 이름', 'b'],
      ['으로“', ''],
      ['누리”가 선정', 'b'],
      ['되었다고 밝혔다.', ''],
    ]);
  });

  it('reads bold that starts after an opening quotation mark and ends before a particle', () => {
    expect(readBack('학생은 ‘**누리’는 ‘세상’의 옛말**로 **새로운 세상을 ****연다는****의미**로,')).toEqual([
      ['학생은 ‘', ''],
      ['누리’는 ‘세상’의 옛말', 'b'],
      ['로 ', ''],
      ['새로운 세상을 연다는의미', 'b'],
      ['로,', ''],
    ]);
  });

  it('moves spaces out of the delimiters', () => {
    expect(readBack('발사체인** ‘한국형발사체’의**** 공식 명칭으로 사용**될 예정')).toEqual([
      ['발사체인 ', ''],
      ['‘한국형발사체’의 공식 명칭으로 사용', 'b'],
      ['될 예정', ''],
    ]);
  });

  it('nests bold and italic and keeps strikethrough', () => {
    expect(readBack('***굵고 기울임***과 *기울임*, ~~지운 말~~')).toEqual([
      ['굵고 기울임', 'bi'],
      ['과 ', ''],
      ['기울임', 'i'],
      [', ', ''],
      ['지운 말', 's'],
    ]);
  });

  it('keeps literal asterisks, underscores and tildes as text', () => {
    const line = '면적 5*3 m, 변수 snake_case, 기간 600~800km, 1~2주';
    expect(readBack(line, line)).toEqual([[line, '']]);
  });

  it('escapes single tildes only when another in the same paragraph could pair with them', () => {
    expect(cleanHwpMarkdown('지구 저궤도(600km~800km)까지\n\n기간은 1~2주')).toBe(
      '지구 저궤도(600km~800km)까지\n\n기간은 1~2주',
    );
    const paragraph = cleanHwpMarkdown('기간은 1~2주  \n또는 3~4주');
    expect(paragraph).toBe('기간은 1\\~2주  \n또는 3\\~4주');
    expect(leftoverDelimiters(paragraph, '~~')).toEqual([]);
  });

  it('writes emphasis in headings and table cells the same way', () => {
    expect(readBack('# 1. **개요**및 목적')).toEqual([
      ['1. ', ''],
      ['개요', 'b'],
      ['및 목적', ''],
    ]);
    const table = cleanHwpMarkdown('| **구분** | **“발사”**일<br>**비고** |\n| --- | --- |');
    expect(table).toBe('| **구분** | **“발사**”일<br>**비고** |\n| --- | --- |');
    expect(leftoverDelimiters(table)).toEqual([]);
  });
});
