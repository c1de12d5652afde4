import { readFileSync } from 'node:fs';
import { extractHwp } from '../libs/documents/src/hwp/extract-hwp';
import { extractHwpx } from '../libs/documents/src/hwpx/extract-hwpx';
import { evalsetPath } from './evalset';

const NAMES = ['example', 'noori', 'sample-5017'] as const;
const FORMATS = ['hwp', 'hwpx'] as const;

/** Text for comparison: no pictures, tags, whitespace, punctuation or Markdown syntax; lower case. */
function comparable(text: string): string[] {
  return [
    ...text
      .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
      .replace(/<[^>]+>/g, '')
      .replace(/[\s\p{P}\p{S}]/gu, '')
      .toLowerCase(),
  ];
}

function levenshtein(a: string[], b: string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** 1 − edit distance / longer length, over the comparable text. */
function similarity(output: string, reference: string): number {
  const a = comparable(output);
  const b = comparable(reference);
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - levenshtein(a, b) / longer;
}

function extract(format: (typeof FORMATS)[number], name: string): Promise<string> {
  const path = evalsetPath(`${format}/${name}.${format}`);
  return format === 'hwp' ? extractHwp(path, `${name}.hwp`) : extractHwpx(path, `${name}.hwpx`);
}

function tableBlocks(markdown: string): string[][] {
  const blocks: string[][] = [];
  let current: string[] = [];
  for (const line of [...markdown.split('\n'), '']) {
    if (line.startsWith('|')) current.push(line);
    else if (current.length > 0) {
      blocks.push(current);
      current = [];
    }
  }
  return blocks;
}

describe.each(FORMATS)('evalset %s extraction against Hancom Office’s own export', (format) => {
  const outputs = new Map<string, string>();

  beforeAll(async () => {
    for (const name of NAMES) outputs.set(name, await extract(format, name));
  });

  it('matches the text of the Hancom HTML export closely, file by file and on average', () => {
    const scores = NAMES.map((name) =>
      similarity(outputs.get(name)!, readFileSync(evalsetPath(`${format}/${name}.ref.txt`), 'utf8')),
    );
    for (const score of scores) expect(score).toBeGreaterThanOrEqual(0.85);
    expect(scores.reduce((a, b) => a + b, 0) / scores.length).toBeGreaterThanOrEqual(0.95);
  });

  it('leaves out the converter’s preamble and the pictures', () => {
    for (const markdown of outputs.values()) {
      expect(markdown).not.toMatch(/HWP 문서|\*\*버전\*\*|용지 크기|base64|!\[|image-\d/);
      expect(markdown).not.toMatch(/\n{3,}/);
      expect(markdown.endsWith('\n')).toBe(true);
    }
  });

  it('reads the example document line for line', () => {
    expect(outputs.get('example')!.split('\n').filter(Boolean).slice(0, 4)).toEqual([
      '삼강오륜',
      '삼강오륜 은 현재까지도 이어져 일상생활에 깊이 뿌리내린 윤리 도덕이랍니다.',
      '삼강',
      '군위신강: 임금과 신하 사이에 마땅히 지켜야 할 도리',
    ]);
  });

  it('keeps the press release’s paragraphs in order, Korean text intact', () => {
    const markdown = outputs.get('noori')!;
    const plain = markdown.replace(/\*\*/g, '');
    const phrases = [
      '보도일시',
      '국민이 정한 그 이름은 ｢누리｣',
      '□ 과학기술정보통신부(장관 유영민, 이하 ‘과기정통부’)는 우리나라 최초로 순수 우리기술로 개발 중인',
      '“누리”가 선정되었다고 밝혔다.',
      'o 한국형발사체는 1.5톤급 실용위성을 지구 저궤도(600km~800km)까지 쏘아 올릴 수 있는 3단형 우주발사체로',
      '누리길 희망하는 마음을 담았다고 밝혔다.',
      '과학기술정보통신부 용찬재 사무관(☎ 02-2110-2428)에게 연락주시기 바랍니다.',
      '한국형발사체(누리호)와 시험발사체 비교',
    ];
    const positions = phrases.map((phrase) => plain.indexOf(phrase));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(markdown).not.toContain('\uFFFD');
  });

  it('writes the press release’s tables as GFM with the same cell count in every row, or as HTML where cells span', () => {
    const markdown = outputs.get('noori')!;
    const tables = tableBlocks(markdown);
    const html = markdown.match(/<table>[\s\S]*?<\/table>/g) ?? [];
    expect(tables.length + html.length).toBeGreaterThanOrEqual(4);
    for (const rows of tables) {
      expect(rows[1]).toMatch(/^\|( --- \|)+$/);
      const counts = rows.map((row) => row.replace(/\\\|/g, '').split('|').length - 2);
      expect(new Set(counts).size).toBe(1);
    }
    const comparison = tables.find((rows) => rows[0].includes('구 분'))!;
    expect(comparison[0]).toBe('| 구 분 | 한국형발사체(누리호) | 시험발사체 |');
    expect(comparison).toContain('| 총 길이 | 47.2 m | 25.8 m |');
    expect(comparison).toContain('| 단 수 | 3단 | 1단 |');
    // The release's heading table has a cell spanning three columns: HWPX says so and it is
    // written as HTML; the HWP reader gets no spans, so its cell is followed by empty ones.
    const gfmHeader = tables.find((rows) => rows[0].includes('보도일시'));
    const htmlHeader = html.find((table) => table.includes('보도일시'));
    if (format === 'hwpx') {
      expect(htmlHeader).toContain(
        '<th colspan="3">2018. 9. 4.(화) 조간(온라인 9. 3. 12:00)부터 보도해 주시기 바랍니다.</th>',
      );
      expect(htmlHeader).toContain(
        '<tr><td>배포일시</td><td>2018. 9. 3.(월) 09:00</td><td>담당부서</td><td>거대공공연구정책과</td></tr>',
      );
    } else {
      expect(gfmHeader).toContain('| 배포일시 | 2018. 9. 3.(월) 09:00 | 담당부서 | 거대공공연구정책과 |');
    }
  });

  it('keeps the tables of the format sample apart from the text around them', () => {
    const markdown = outputs.get('sample-5017')!;
    expect(markdown).toContain('| A0 | B0 |\n| --- | --- |\n| A1 | B10<br>B11 |');
    expect(markdown).toContain('| table2 |\n| --- |');
    expect(markdown.indexOf('한글 2005 예제 파일입니다.')).toBeLessThan(markdown.indexOf('| A0 | B0 |'));
    expect(markdown.indexOf('| A0 | B0 |')).toBeLessThan(markdown.indexOf('다음 문단'));
    expect(markdown.trimEnd().endsWith('다음 페이지')).toBe(true);
  });
});
