import sharp from 'sharp';
import { BODY, BODY_FONT_PT, MAX_BODY_LINES } from './slide-layout';
import { sentenceStarts, unitsPerLine } from './slide-text';
import { renderPptxInChild } from './testing/render-pptx-in-child';
import { zipEntries } from './testing/zip-entries';
import { displayWidth } from './text-width';
import { readMarkdown } from '@docconv/model';

/** The renderer's input: the Markdown read into the model. */
const md = (markdown: string) => readMarkdown(markdown, 'test.md');

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

interface ReadPicture {
  /** Size in EMU. */
  cx: number;
  cy: number;
  descr: string;
}

interface ReadSlide {
  title: string;
  paragraphs: ReadParagraph[];
  tables: ReadCell[][][];
  pictures: ReadPicture[];
  /** The text of the slide's speaker notes, or '' without notes. */
  notes: string;
}

interface ReadDeck {
  slides: ReadSlide[];
  /** Files under ppt/media/. */
  media: string[];
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

function picturesOf(xml: string): ReadPicture[] {
  return [...xml.matchAll(/<p:pic>([\s\S]*?)<\/p:pic>/g)].map(([, pic]) => ({
    cx: Number(/<a:ext cx="(\d+)"/.exec(pic)?.[1]),
    cy: Number(/<a:ext cx="\d+" cy="(\d+)"/.exec(pic)?.[1]),
    descr: decodeXml(/descr="([^"]*)"/.exec(pic)?.[1] ?? ''),
  }));
}

/** The text of the body placeholder of the notes slide a slide's relationships point to. */
function notesOf(entries: Map<string, Buffer>, slideName: string): string {
  const rels = entries.get(slideName.replace('slides/', 'slides/_rels/') + '.rels')?.toString('utf8') ?? '';
  const target = /Target="\.\.\/(notesSlides\/notesSlide\d+\.xml)"/.exec(rels)?.[1];
  const xml = target ? (entries.get(`ppt/${target}`)?.toString('utf8') ?? '') : '';
  const body = [...xml.matchAll(/<p:sp>([\s\S]*?)<\/p:sp>/g)].find((match) => match[1].includes('type="body"'));
  return body ? textOf(body[1]) : '';
}

/** Slides in order: the first shape's text as title, the other shapes' paragraphs, native tables, pictures and notes. */
async function readDeck(pptx: Buffer): Promise<ReadDeck> {
  const entries = await zipEntries(pptx);
  const slideNames = [...entries.keys()]
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)?.[1]) - Number(/(\d+)\.xml$/.exec(b)?.[1]));
  const slides = slideNames.map((name) => {
    const xml = entries.get(name)?.toString('utf8') ?? '';
    const shapes = [...xml.matchAll(/<p:sp>([\s\S]*?)<\/p:sp>/g)].map((match) => match[1]);
    const tables = [...xml.matchAll(/<a:tbl>([\s\S]*?)<\/a:tbl>/g)].map((match) => tableOf(match[1]));
    return {
      title: textOf(shapes[0] ?? ''),
      paragraphs: shapes.slice(1).flatMap(paragraphsOf),
      tables,
      pictures: picturesOf(xml),
      notes: notesOf(entries, name),
    };
  });
  const media = [...entries.keys()].filter((name) => name.startsWith('ppt/media/') && !name.endsWith('/'));
  return { slides, media };
}

/** Whether a content slide shows something besides its title: some text, a table or a picture. */
function hasContent(slide: ReadSlide): boolean {
  return slide.paragraphs.some((p) => p.text.trim() !== '') || slide.tables.length > 0 || slide.pictures.length > 0;
}

/** The sentences of a text, cut where the planner may cut. */
function sentencesOf(text: string): string[] {
  const cuts = [0, ...sentenceStarts(text), text.length];
  return cuts.slice(1).map((end, i) => text.slice(cuts[i], end).trim());
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
/** One sentence longer than a slide: no punctuation to break at. */
const ENDLESS = Array.from({ length: 480 }, (_, i) => `word${i}`).join(' ');
const LONG = `## Findings\n\n${LONG_POINTS.map((point) => `- ${point}`).join('\n')}\n\n${ENDLESS}\n`;

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

/** Prose paragraphs of 1 to 9 numbered sentences of 6 to 25 words, so that slides must break between them. */
const PROSE_PARAGRAPHS = Array.from({ length: 36 }, (_, p) =>
  Array.from({ length: 1 + ((p * 5) % 9) }, (_, s) => {
    const n = p * 10 + s;
    return `Sentence ${n} ${Array.from({ length: 4 + ((n * 7) % 20) }, (_, w) => `word${w}`).join(' ')}.`;
  }).join(' '),
);
const PROSE = `## Essay\n\n${PROSE_PARAGRAPHS.join('\n\n')}\n\n## Second part\n\n${PROSE_PARAGRAPHS.slice(0, 12).join('\n\n')}\n`;

/** A document without headings, like an extracted HWP press release. */
const HEADINGLESS = PROSE_PARAGRAPHS.join('\n\n');

const PICTURES = `## Figures\n\nThe chart below shows the results.\n\n![Sales by region](images/chart.png)\n\n![A lost figure](images/lost.png)\n`;

describe('renderPptx', () => {
  let report: ReadSlide[];
  let long: ReadSlide[];
  let bigTable: ReadSlide[];
  let korean: ReadSlide[];
  let prose: ReadSlide[];
  let headingless: ReadSlide[];
  let pictures: ReadDeck;
  let koreanXml: string;
  let figuresXml: string;

  beforeAll(async () => {
    const chart = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const decks = renderPptxInChild([
      { document: md(REPORT), title: 'report.pdf' },
      { document: md(LONG), title: 'long.pdf' },
      { document: md(BIG_TABLE), title: 'ledger.xlsx' },
      { document: md(KOREAN), title: '보고서.hwp' },
      { document: md(PROSE), title: 'essay.docx' },
      { document: md(HEADINGLESS), title: 'noori.hwp' },
      { document: md(PICTURES), title: 'figures.pdf', images: { 'images/chart.png': chart.toString('base64') } },
    ]);
    const read = await Promise.all(decks.map(readDeck));
    [report, long, bigTable, korean, prose, headingless] = read.map((deck) => deck.slides);
    pictures = read[6];
    figuresXml = (await zipEntries(decks[0])).get('ppt/slides/slide2.xml')?.toString('utf8') ?? '';
    koreanXml = (await zipEntries(decks[3])).get('ppt/slides/slide2.xml')?.toString('utf8') ?? '';
  });

  it('opens with a title slide carrying the document title, and never repeats it as a slide', () => {
    expect(report[0].title).toBe('Quarterly Report');
    expect(report[0].paragraphs).toEqual([]);
    expect(report.slice(1).map((slide) => slide.title)).not.toContain('Quarterly Report');
    expect(headingless[0].title).toBe('noori');
  });

  it('starts a section on its own slide, or below a slide that is less than half full', () => {
    expect(report.map((slide) => slide.title)).toEqual(['Quarterly Report', 'Summary', 'Merged']);
    expect(report[1].paragraphs.map((p) => p.text)).toContain('Figures');
  });

  it('writes bullets and numbering as real list levels', () => {
    expect(report[1].paragraphs.slice(0, 6)).toEqual([
      { text: 'Revenue grew strongly in the quarter.', bullet: 'none', level: 0 },
      { text: 'North', bullet: 'char', level: 0 },
      { text: 'City A', bullet: 'char', level: 1 },
      { text: 'South', bullet: 'char', level: 0 },
      { text: 'Plan', bullet: 'number', level: 0 },
      { text: 'Execute', bullet: 'number', level: 0 },
    ]);
  });

  it('writes tables as native tables with the header row styled', () => {
    expect(report[1].tables).toHaveLength(1);
    expect(report[1].tables[0].map((row) => row.map((cell) => cell.text))).toEqual([
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
    const [table] = report[2].tables;
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

  it('continues a long section on slides titled with a counter that stay within the line budget', () => {
    const content = long.slice(1);
    expect(content.length).toBeGreaterThan(2);
    expect(content.map((slide) => slide.title)).toEqual(content.map((_, i) => `Findings (${i + 1}/${content.length})`));
    const charsPerLine = unitsPerLine(BODY.w - 0.2, BODY_FONT_PT);
    for (const slide of content) {
      const lines = slide.paragraphs.reduce(
        (sum, p) => sum + Math.max(1, Math.ceil(displayWidth(p.text) / charsPerLine)),
        0,
      );
      expect(lines).toBeLessThanOrEqual(MAX_BODY_LINES);
    }
    const bullets = content.flatMap((slide) => slide.paragraphs.filter((p) => p.bullet === 'char').map((p) => p.text));
    expect(bullets).toEqual(LONG_POINTS);
  });

  it('shortens a sentence longer than a slide with an ellipsis and writes it in full in the speaker notes', () => {
    const withNotes = long.filter((slide) => slide.notes !== '');
    expect(withNotes).toHaveLength(1);
    expect(withNotes[0].notes).toBe(ENDLESS);
    const shortened = withNotes[0].paragraphs.at(-1)?.text ?? '';
    expect(shortened.endsWith('…')).toBe(true);
    expect(ENDLESS.startsWith(shortened.slice(0, -1))).toBe(true);
  });

  it('never cuts a sentence between slides', () => {
    const source = new Set(PROSE_PARAGRAPHS.flatMap(sentencesOf));
    const shown = prose.slice(1).flatMap((slide) => slide.paragraphs.map((p) => p.text));
    const sentences = shown.filter((text) => !['Essay', 'Second part'].includes(text)).flatMap(sentencesOf);
    expect(sentences.length).toBeGreaterThan(200);
    for (const sentence of sentences) expect(source.has(sentence)).toBe(true);
    expect(prose.length).toBeGreaterThan(5);
  });

  it('titles the slides of a document without headings with its title and a counter, never "(cont.)"', () => {
    const content = headingless.slice(1);
    expect(content.length).toBeGreaterThan(2);
    expect(content.map((slide) => slide.title)).toEqual(content.map((_, i) => `noori (${i + 1}/${content.length})`));
    expect(content.some((slide) => slide.title.includes('(cont.)') || slide.title.includes('noori.hwp'))).toBe(false);
  });

  it('splits a long table by rows with the header repeated on each slide', () => {
    const tables = bigTable.slice(1).flatMap((slide) => slide.tables);
    expect(tables.length).toBeGreaterThan(1);
    expect(bigTable.slice(2).every((slide) => /^Ledger \(\d+\/\d+\)$/.test(slide.title))).toBe(true);
    for (const table of tables) expect(table[0].map((cell) => cell.text)).toEqual(['Date', 'Amount']);
    const amounts = tables.flatMap((table) => table.slice(1).map((row) => row[1].text));
    expect(amounts).toEqual(Array.from({ length: TABLE_ROWS }, (_, i) => String(i)));
  });

  it('writes Korean sections and tables, tagged as Korean', () => {
    expect(korean.map((slide) => slide.title)).toEqual(['분기 보고서', '매출 현황']);
    expect(korean[1].paragraphs.map((p) => p.text)).toEqual([
      '서울 지역의 매출이 증가했습니다.',
      '향후 계획',
      '신규 지점 개설',
    ]);
    expect(korean[1].tables[0].map((row) => row.map((cell) => cell.text))).toEqual([
      ['지역', '매출'],
      ['서울', '1,000원'],
      ['부산', '2,500원'],
    ]);
    expect(koreanXml).toContain('lang="ko-KR"');
  });

  it('places a picture below its text with its proportions, and writes the alt text of one it has no bytes for', () => {
    expect(pictures.media).toHaveLength(1);
    const [slide] = pictures.slides.slice(1);
    expect(slide.pictures).toHaveLength(1);
    const [picture] = slide.pictures;
    expect(picture.descr).toBe('Sales by region');
    expect(picture.cx / picture.cy).toBeCloseTo(2);
    expect(slide.paragraphs.map((p) => p.text)).toEqual(['The chart below shows the results.', 'A lost figure']);
  });

  it('leaves no slide empty', () => {
    for (const deck of [report, long, bigTable, korean, prose, headingless, pictures.slides]) {
      for (const slide of deck.slice(1)) expect(hasContent(slide)).toBe(true);
    }
  });
});
