import { writeMarkdown } from '@docconv/model';
import { readFileSync } from 'node:fs';
import { extractHwp } from '../libs/documents/src/hwp/extract-hwp';
import { extractHwpx } from '../libs/documents/src/hwpx/extract-hwpx';
import { hancomReference, type HancomReference } from '../tools/eval/hancom';
import { hygiene, unreadDelimiters } from '../tools/eval/hygiene';
import { similarity } from '../tools/eval/metrics';
import { parseMarkdownTables, structureExactness, tableHasText, type Table } from '../tools/eval/tables';
import { evalsetPath } from './evalset';

const NAMES = ['example', 'noori', 'sample-5017'] as const;
const FORMATS = ['hwp', 'hwpx'] as const;

/** Hancom Office's own export of each document (the same for its HWP and HWPX forms), read as the scorer reads it. */
function hancom(format: (typeof FORMATS)[number], name: string): HancomReference {
  return hancomReference(readFileSync(evalsetPath(`${format}/${name}.ref.html`), 'utf8'))!;
}

/** A table as rows of `text[rowspan×colspan]` cells, for failure messages. */
function describeTable(table: Table): string {
  return table.rows
    .map((row) =>
      row
        .map(
          (c) => `${c.text.replace(/\n/g, '⏎')}${c.rowspan > 1 || c.colspan > 1 ? `[${c.rowspan}×${c.colspan}]` : ''}`,
        )
        .join(' | '),
    )
    .join(' / ');
}

async function extract(format: (typeof FORMATS)[number], name: string): Promise<string> {
  const path = evalsetPath(`${format}/${name}.${format}`);
  return writeMarkdown(await (format === 'hwp' ? extractHwp(path, `${name}.hwp`) : extractHwpx(path, `${name}.hwpx`)));
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

  it('reads as Hancom Office draws the pages: mean text similarity in visual order at least 0.97', () => {
    const scores = NAMES.map((name) => similarity(outputs.get(name)!, hancom(format, name).text));
    expect(scores.reduce((a, b) => a + b, 0) / scores.length).toBeGreaterThanOrEqual(0.97);
  });

  it('writes every Hancom table with text as a table with the same grid, spans and cell texts', () => {
    const missed = NAMES.flatMap((name) => {
      const references = hancom(format, name).tables.filter(tableHasText);
      const exactness = structureExactness(parseMarkdownTables(outputs.get(name)!), references);
      return references.filter((_, i) => exactness?.exact[i] !== true).map((t) => `${name}: ${describeTable(t)}`);
    });
    expect(missed).toEqual([]);
  });

  it('prints no emphasis or strikethrough marker literally', () => {
    for (const name of NAMES) {
      const markdown = outputs.get(name)!;
      expect({ name, unread: unreadDelimiters(markdown), literal: hygiene(markdown).examples.literalEmphasis }).toEqual(
        {
          name,
          unread: [],
          literal: undefined,
        },
      );
    }
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
    // The release's heading table has a cell spanning three columns: written as HTML, from either file.
    const htmlHeader = html.find((table) => table.includes('보도일시'));
    expect(htmlHeader).toContain(
      '<th colspan="3"><strong>2018. 9. 4.(화) 조간(온라인 9. 3. 12:00)부터 보도해 주시기 바랍니다.</strong></th>',
    );
    expect(htmlHeader).toContain(
      '<tr><td><strong>배포일시</strong></td><td>2018. 9. 3.(월) 09:00</td><td><strong>담당부서</strong></td><td>거대공공연구정책과</td></tr>',
    );
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

describe('evalset documents given both as HWP and as HWPX', () => {
  it.each(NAMES)('%s reads the same from either file, text similarity at least 0.98', async (name) => {
    const score = similarity(await extract('hwp', name), await extract('hwpx', name));
    expect(score).toBeGreaterThanOrEqual(0.98);
  });
});
