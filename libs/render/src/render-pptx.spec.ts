import { BODY, BODY_FONT_PT, MAX_BODY_LINES, unitsPerLine } from './slide-plan';
import { renderPptxInChild } from './testing/render-pptx-in-child';
import { zipEntries } from './testing/zip-entries';
import { displayWidth } from './text-width';

interface ReadParagraph {
  text: string;
  bullet: 'char' | 'number' | 'none';
  level: number;
}

interface ReadCell {
  text: string;
  rowSpan: number;
  gridSpan: number;
  /** A position covered by another cell's span. */
  covered: boolean;
}

interface ReadSlide {
  title: string;
  paragraphs: ReadParagraph[];
  tables: ReadCell[][][];
}

function decodeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function textOf(xml: string): string {
  return [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((match) => decodeXml(match[1])).join('');
}

function paragraphsOf(xml: string): ReadParagraph[] {
  return [...xml.matchAll(/<a:p>([\s\S]*?)<\/a:p>/g)].map(([, body]) => ({
    text: textOf(body),
    bullet: body.includes('<a:buAutoNum') ? 'number' : body.includes('<a:buChar') ? 'char' : 'none',
    level: Number(/<a:pPr[^>]*\blvl="(\d+)"/.exec(body)?.[1] ?? 0),
  }));
}

function tableOf(xml: string): ReadCell[][] {
  return [...xml.matchAll(/<a:tr\b[^>]*>([\s\S]*?)<\/a:tr>/g)].map(([, row]) =>
    [...row.matchAll(/<a:tc\b([^>]*)>([\s\S]*?)<\/a:tc>/g)].map(([, attributes, cell]) => ({
      text: paragraphsOf(cell)
        .map((paragraph) => paragraph.text)
        .join('\n'),
      rowSpan: Number(/rowSpan="(\d+)"/.exec(attributes)?.[1] ?? 1),
      gridSpan: Number(/gridSpan="(\d+)"/.exec(attributes)?.[1] ?? 1),
      covered: /[hv]Merge="1"/.test(attributes),
    })),
  );
}

/** Slides in order: the first shape's text as title, the other shapes' paragraphs, and native tables. */
async function readDeck(pptx: Buffer): Promise<ReadSlide[]> {
  const entries = await zipEntries(pptx);
  const slideNames = [...entries.keys()]
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)?.[1]) - Number(/(\d+)\.xml$/.exec(b)?.[1]));
  return slideNames.map((name) => {
    const xml = entries.get(name)?.toString('utf8') ?? '';
    const shapes = [...xml.matchAll(/<p:sp>([\s\S]*?)<\/p:sp>/g)].map((match) => match[1]);
    const tables = [...xml.matchAll(/<a:tbl>([\s\S]*?)<\/a:tbl>/g)].map((match) => tableOf(match[1]));
    return {
      title: textOf(shapes[0] ?? ''),
      paragraphs: shapes.slice(1).flatMap(paragraphsOf),
      tables,
    };
  });
}

const REPORT = `# Quarterly Report

## Summary

Revenue grew **strongly** in the quarter.

- North
  - City A
- South

1. Plan
2. Execute

## Figures

| Region | Revenue |
|---|---|
| North | $1,200 |
| South | $980 |

## Merged

<table>
<tr><th rowspan="2">Region</th><th colspan="2">Sales</th></tr>
<tr><th>Q1</th><th>Q2</th></tr>
<tr><td>North</td><td>10</td><td>20</td></tr>
</table>
`;

const LONG_POINTS = Array.from({ length: 45 }, (_, i) => `Observation ${i + 1} about the results`);
const LONG = `## Findings\n\n${LONG_POINTS.map((point) => `- ${point}`).join('\n')}\n\n${Array.from(
  { length: 120 },
  (_, i) => `word${i}`,
)
  .join(' ')
  .repeat(4)}\n`;

const TABLE_ROWS = 40;
const BIG_TABLE = `## Ledger\n\n| Date | Amount |\n|---|---|\n${Array.from({ length: TABLE_ROWS }, (_, i) => `| 2024-01-${String((i % 28) + 1).padStart(2, '0')} | ${i} |`).join('\n')}\n`;

const KOREAN = `# 분기 보고서

## 매출 현황

서울 지역의 매출이 증가했습니다.

| 지역 | 매출 |
|---|---|
| 서울 | 1,000원 |
| 부산 | 2,500원 |

## 향후 계획

- 신규 지점 개설
`;

describe('renderPptx', () => {
  let report: ReadSlide[];
  let long: ReadSlide[];
  let bigTable: ReadSlide[];
  let korean: ReadSlide[];
  let koreanXml: string;
  let figuresXml: string;

  beforeAll(async () => {
    const decks = renderPptxInChild([
      { markdown: REPORT, title: 'report.pdf' },
      { markdown: LONG, title: 'long.pdf' },
      { markdown: BIG_TABLE, title: 'ledger.xlsx' },
      { markdown: KOREAN, title: '보고서.hwp' },
    ]);
    [report, long, bigTable, korean] = await Promise.all(decks.map(readDeck));
    figuresXml = (await zipEntries(decks[0])).get('ppt/slides/slide3.xml')?.toString('utf8') ?? '';
    koreanXml = (await zipEntries(decks[3])).get('ppt/slides/slide2.xml')?.toString('utf8') ?? '';
  });

  it('opens with a title slide carrying the title and the document heading', () => {
    expect(report[0].title).toBe('report.pdf');
    expect(report[0].paragraphs.map((p) => p.text)).toEqual(['Quarterly Report']);
  });

  it('gives each section its own slide', () => {
    expect(report.map((slide) => slide.title)).toEqual(['report.pdf', 'Summary', 'Figures', 'Merged']);
  });

  it('writes bullets and numbering as real list levels', () => {
    expect(report[1].paragraphs).toEqual([
      { text: 'Revenue grew strongly in the quarter.', bullet: 'none', level: 0 },
      { text: 'North', bullet: 'char', level: 0 },
      { text: 'City A', bullet: 'char', level: 1 },
      { text: 'South', bullet: 'char', level: 0 },
      { text: 'Plan', bullet: 'number', level: 0 },
      { text: 'Execute', bullet: 'number', level: 0 },
    ]);
  });

  it('writes tables as native tables with the header row styled', () => {
    expect(report[2].tables).toHaveLength(1);
    expect(report[2].tables[0].map((row) => row.map((cell) => cell.text))).toEqual([
      ['Region', 'Revenue'],
      ['North', '$1,200'],
      ['South', '$980'],
    ]);
    const [headerRow, bodyRow] = [...figuresXml.matchAll(/<a:tr\b[\s\S]*?<\/a:tr>/g)].map((match) => match[0]);
    expect(headerRow).toMatch(/b="1"/);
    expect(headerRow).toContain('D9E2F3');
    expect(bodyRow).not.toMatch(/b="1"/);
  });

  it('keeps HTML row and column spans in native tables', () => {
    const [table] = report[3].tables;
    expect(
      table.map((row) => row.filter((cell) => !cell.covered).map((cell) => [cell.text, cell.rowSpan, cell.gridSpan])),
    ).toEqual([
      [
        ['Region', 2, 1],
        ['Sales', 1, 2],
      ],
      [
        ['Q1', 1, 1],
        ['Q2', 1, 1],
      ],
      [
        ['North', 1, 1],
        ['10', 1, 1],
        ['20', 1, 1],
      ],
    ]);
  });

  it('continues a long section on "(cont.)" slides that stay within the line budget', () => {
    const content = long.slice(1);
    expect(content.length).toBeGreaterThan(3);
    expect(content[0].title).toBe('Findings');
    expect(content.slice(1).every((slide) => slide.title === 'Findings (cont.)')).toBe(true);
    const charsPerLine = unitsPerLine(BODY.w - 0.2, BODY_FONT_PT);
    for (const slide of content) {
      expect(slide.paragraphs.length).toBeLessThanOrEqual(MAX_BODY_LINES);
      const lines = slide.paragraphs.reduce(
        (sum, p) => sum + Math.max(1, Math.ceil(displayWidth(p.text) / charsPerLine)),
        0,
      );
      expect(lines).toBeLessThanOrEqual(MAX_BODY_LINES);
    }
    const bullets = content.flatMap((slide) => slide.paragraphs.filter((p) => p.bullet === 'char').map((p) => p.text));
    expect(bullets).toEqual(LONG_POINTS);
  });

  it('splits a long table by rows with the header repeated on each slide', () => {
    const tables = bigTable.slice(1).flatMap((slide) => slide.tables);
    expect(tables.length).toBeGreaterThan(1);
    expect(bigTable.slice(2).every((slide) => slide.title === 'Ledger (cont.)')).toBe(true);
    for (const table of tables) expect(table[0].map((cell) => cell.text)).toEqual(['Date', 'Amount']);
    const amounts = tables.flatMap((table) => table.slice(1).map((row) => row[1].text));
    expect(amounts).toEqual(Array.from({ length: TABLE_ROWS }, (_, i) => String(i)));
  });

  it('writes Korean sections and tables, tagged as Korean', () => {
    expect(korean.map((slide) => slide.title)).toEqual(['보고서.hwp', '매출 현황', '향후 계획']);
    expect(korean[0].paragraphs.map((p) => p.text)).toEqual(['분기 보고서']);
    expect(korean[1].paragraphs.map((p) => p.text)).toEqual(['서울 지역의 매출이 증가했습니다.']);
    expect(korean[1].tables[0].map((row) => row.map((cell) => cell.text))).toEqual([
      ['지역', '매출'],
      ['서울', '1,000원'],
      ['부산', '2,500원'],
    ]);
    expect(koreanXml).toContain('lang="ko-KR"');
  });
});
