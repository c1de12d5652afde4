import { documentBlocks } from './document-blocks';
import { readMarkdown } from '@docconv/model';
import { BODY, BODY_FONT_PT, BODY_LINE_IN, MAX_BODY_LINES } from './slide-layout';
import {
  fileTitle,
  paragraphCost,
  paragraphUnits,
  planDeck,
  type DeckPlan,
  type PictureSize,
  type PlannedSlide,
  type SlideParagraph,
  type SlidePicture,
} from './slide-plan';
import type { SlideTable } from './slide-table';
import { sentenceStarts, truncateToLines, unitsPerLine, wrapLines } from './slide-text';
import * as textWidth from './text-width';

// The text measure, counted by the linear-time test (the real functions, wrapped).
jest.mock('./text-width', () => {
  const actual = jest.requireActual<typeof import('./text-width')>('./text-width');
  return { ...actual, displayWidth: jest.fn(actual.displayWidth), isWide: jest.fn(actual.isWide) };
});

function plan(markdown: string, title = 'deck.md', pictures?: ReadonlyMap<string, PictureSize>): DeckPlan {
  return planDeck(documentBlocks(readMarkdown(markdown, 'test.md')), title, pictures);
}

function paragraphsOf(slide: PlannedSlide): SlideParagraph[] {
  return slide.items.flatMap((item) => (item.kind === 'text' ? item.paragraphs : []));
}

function tablesOf(slide: PlannedSlide): SlideTable[] {
  return slide.items.flatMap((item) => (item.kind === 'table' ? [item.table] : []));
}

function picturesOf(slide: PlannedSlide): SlidePicture[] {
  return slide.items.flatMap((item) => (item.kind === 'picture' ? [item.picture] : []));
}

function texts(slide: PlannedSlide): string[] {
  return paragraphsOf(slide).map((p) => p.text);
}

/** Body lines a slide's content takes, recomputed from the text itself rather than from the plan's totals. */
function recomputedLines(slide: PlannedSlide): number {
  return slide.items.reduce((sum, item) => {
    if (item.kind !== 'text') return sum + item.lines;
    return (
      sum +
      item.paragraphs.reduce(
        (s, p) => s + paragraphCost({ ...p, lines: wrapLines(p.text, paragraphUnits(p)).length }),
        0,
      )
    );
  }, 0);
}

function words(count: number, word = 'lorem'): string {
  return Array.from({ length: count }, (_, i) => `${word}${i}`).join(' ');
}

/** Sentences of 6 to 25 words, numbered so that each is unique. */
function sentences(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => `Sentence ${from + i} says ${words(4 + (((from + i) * 7) % 20))}.`);
}

/** The sentences a text is made of, cut where `sentenceStarts` cuts. */
function sentencesOf(text: string): string[] {
  const cuts = [0, ...sentenceStarts(text), text.length];
  return cuts.slice(1).map((end, i) => text.slice(cuts[i], end).trim());
}

function hasContent(slide: PlannedSlide): boolean {
  return slide.items.some((item) => item.kind !== 'text' || item.paragraphs.some((p) => p.text.trim() !== ''));
}

describe('planDeck titles and sections', () => {
  it('takes a lone top heading as the deck title and makes no slide of it', () => {
    const deck = plan(`# Annual Report\n\n## Sales\n\n${sentences(30).join(' ')}\n\n## Costs\n\nDown.\n`, 'report.pdf');
    expect(deck.title).toBe('Annual Report');
    expect(deck.slides.every((slide) => !texts(slide).includes('Annual Report'))).toBe(true);
    expect(deck.slides[0].title).toMatch(/^Sales/);
  });

  it('titles a document without a top heading with its file name, cleaned', () => {
    expect(plan('## A\n\ntext\n', 'redp5110_sampled.pdf').title).toBe('redp5110 sampled');
    expect(fileTitle('reports/q3__sales  report.final.docx')).toBe('q3 sales report.final');
    expect(fileTitle('.hwp')).toBe('.hwp');
  });

  it('lets a heading with no text of its own share a slide with what follows', () => {
    const deck = plan(
      `Front cover\n\n## Row and Column Access Control\n\n## Contents\n\n${sentences(3).join(' ')}\n`,
      'r.pdf',
    );
    expect(deck.slides).toHaveLength(1);
    expect(texts(deck.slides[0])).toEqual([
      'Front cover',
      'Row and Column Access Control',
      'Contents',
      sentences(3).join(' '),
    ]);
  });

  it('puts short sections on one slide while it is less than half full, and opens a slide for a section after a fuller one', () => {
    const long = sentences(8).join(' ');
    const deck = plan(`## A\n\nOne.\n\n## B\n\nTwo.\n\n## C\n\n${long}\n\n## D\n\nFour.\n`);
    expect(deck.slides.map((slide) => slide.title)).toEqual(['A', 'D']);
    expect(paragraphsOf(deck.slides[0]).map((p) => [p.text, p.style])).toEqual([
      ['One.', 'body'],
      ['B', 'subheading'],
      ['Two.', 'body'],
      ['C', 'subheading'],
      [long, 'body'],
    ]);
  });

  it('titles the slides of a section with a counter, and those of a document without headings with its title', () => {
    const prose = Array.from({ length: 12 }, (_, i) => sentences(5, i * 5).join(' ')).join('\n\n');
    const deck = plan(`${prose}\n`, 'noori.hwp');
    expect(deck.slides.length).toBeGreaterThan(2);
    const total = deck.slides.length;
    expect(deck.slides.map((slide) => slide.title)).toEqual(deck.slides.map((_, i) => `noori (${i + 1}/${total})`));
    expect(deck.slides.some((slide) => /cont\.|hwp/.test(slide.title))).toBe(false);
    expect(plan('Just text.\n', 'plain.txt').slides.map((slide) => slide.title)).toEqual(['plain']);
  });

  it('writes bullets and numbers with their levels', () => {
    const deck = plan('## L\n\n- a\n  - b\n\n1. one\n2. two\n');
    expect(paragraphsOf(deck.slides[0]).map((p) => [p.text, p.bullet, p.level, p.number])).toEqual([
      ['a', 'bullet', 0, 1],
      ['b', 'bullet', 1, 1],
      ['one', 'number', 0, 1],
      ['two', 'number', 0, 2],
    ]);
  });

  it('adds link addresses after the linked words and keeps a paragraph’s lines together', () => {
    const deck = plan('## L\n\nSee [the site](https://example.com) now.\n\nfirst line\\\nsecond line\n');
    expect(texts(deck.slides[0])).toEqual(['See the site (https://example.com) now.', 'first line\nsecond line']);
  });
});

describe('planDeck pagination', () => {
  it('continues a long list on slides within the line budget, breaking between items', () => {
    const lines = Array.from({ length: 60 }, (_, i) => `Point number ${i + 1}`);
    const deck = plan(`## Long\n\n${lines.map((line) => `- ${line}`).join('\n')}\n`);
    expect(deck.slides.length).toBeGreaterThanOrEqual(Math.ceil(60 / MAX_BODY_LINES));
    expect(deck.slides.map((slide) => slide.title)).toEqual(
      deck.slides.map((_, i) => `Long (${i + 1}/${deck.slides.length})`),
    );
    for (const slide of deck.slides) expect(recomputedLines(slide)).toBeLessThanOrEqual(MAX_BODY_LINES);
    expect(deck.slides.flatMap(texts)).toEqual(lines);
  });

  it('never breaks a slide inside a sentence, and keeps paragraphs that fit a slide whole', () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => sentences(1 + ((i * 5) % 9), i * 10).join(' '));
    paragraphs[17] = sentences(60, 1000).join(' '); // longer than a whole slide
    const deck = plan(`## Essay\n\n${paragraphs.join('\n\n')}\n`);
    const source = new Set(paragraphs.flatMap(sentencesOf));
    const shown = deck.slides.flatMap(texts);
    for (const text of shown) for (const sentence of sentencesOf(text)) expect(source.has(sentence)).toBe(true);
    const onSlides = new Set(shown);
    paragraphs.forEach((paragraph, i) => i !== 17 && expect(onSlides.has(paragraph)).toBe(true));
    expect(shown.join(' ')).toBe(paragraphs.join(' '));
    for (const slide of deck.slides) {
      expect(recomputedLines(slide)).toBeLessThanOrEqual(MAX_BODY_LINES);
      expect(slide.notes).toEqual([]);
    }
  });

  it('shortens a sentence longer than a slide with an ellipsis and keeps it whole in the speaker notes', () => {
    const sentence = `${words(900)}.`;
    const deck = plan(`## Essay\n\nShort opening.\n\n${sentence} After it.\n`);
    const [notes] = deck.slides.flatMap((slide) => slide.notes);
    expect(notes).toBe(sentence);
    const shortened = deck.slides.flatMap(texts).find((text) => text.endsWith('…'));
    expect(sentence.startsWith(shortened?.slice(0, -1) ?? 'missing')).toBe(true);
    expect(deck.slides.flatMap(texts).at(-1)).toBe('After it.');
    for (const slide of deck.slides) expect(recomputedLines(slide)).toBeLessThanOrEqual(MAX_BODY_LINES);
  });

  it('splits a very long paragraph in linear time: ten times the sentences, about ten times the text measured', () => {
    // The work is counted, not timed: the characters handed to the text measure, and each character weighed.
    const measured = jest.mocked(textWidth.displayWidth);
    const weighed = jest.mocked(textWidth.isWide);
    const work = (count: number) => {
      measured.mockClear();
      weighed.mockClear();
      const deck = plan(`## Dump\n\n${sentences(count).join(' ')}\n`);
      expect(deck.slides.every((slide) => slide.lines <= MAX_BODY_LINES)).toBe(true);
      return {
        deck,
        characters: measured.mock.calls.reduce((n, [text]) => n + text.length, 0) + weighed.mock.calls.length,
      };
    };
    const small = work(400);
    const large = work(4_000);
    expect(large.deck.slides.length).toBeGreaterThan(100);
    expect(large.characters / small.characters).toBeLessThan(15);
  });

  it('counts Hangul as wide, so Korean text needs more slides than as many Latin letters', () => {
    // Sentences of 18 characters each: four of them take one line in Latin letters and two in Hangul.
    const korean = Array.from({ length: 60 }, () => '한국어 문장은 여기에서 끝난다. '.repeat(4).trim()).join('\n\n');
    const latin = Array.from({ length: 60 }, () => 'abc def ghij klmn. '.repeat(4).trim()).join('\n\n');
    const koreanDeck = plan(`## 본문\n\n${korean}\n`);
    expect(koreanDeck.slides.length).toBeGreaterThan(plan(`## Body\n\n${latin}\n`).slides.length);
    expect(koreanDeck.slides[1].title).toBe(`본문 (2/${koreanDeck.slides.length})`);
    for (const slide of koreanDeck.slides) expect(recomputedLines(slide)).toBeLessThanOrEqual(MAX_BODY_LINES);
  });

  it('keeps a numbered item split across slides numbered once', () => {
    const deck = plan(`## Steps\n\n1. short\n2. ${sentences(80).join(' ')}\n3. last\n`);
    const items = deck.slides.flatMap(paragraphsOf);
    expect(items.filter((p) => p.bullet === 'number').map((p) => p.number)).toEqual([1, 2, 3]);
    expect(items.filter((p) => p.bullet === 'none').length).toBeGreaterThan(0);
  });

  it('leaves no slide empty, whatever the headings', () => {
    const docs = [
      '# Title\n\n## A\n\n## B\n\n### C\n\n## D\n',
      `Front cover\n\n## Empty\n\n## Table\n\n| a | b |\n|---|---|\n${'| 1 | 2 |\n'.repeat(60)}\n## End\n`,
      `## Code\n\n\`\`\`\n${'x = 1\n'.repeat(90)}\`\`\`\n\n---\n\n## Last\n`,
      '![only a picture]()\n',
    ];
    for (const markdown of docs) {
      const deck = plan(markdown);
      expect(deck.slides.length).toBeGreaterThan(0);
      for (const slide of deck.slides) expect(hasContent(slide)).toBe(true);
    }
  });
});

describe('planDeck tables', () => {
  it('splits a long table by rows, repeating its header on every slide, with no slide holding a lone row', () => {
    const rows = Array.from({ length: 61 }, (_, i) => `| r${i} | ${i * 10} |`).join('\n');
    const deck = plan(`## Data\n\n| Name | Value |\n|---|---|\n${rows}\n`);
    const tables = deck.slides.flatMap(tablesOf);
    expect(tables.length).toBeGreaterThan(1);
    for (const table of tables) {
      expect(table.rows[0].map((cell) => [cell.text, cell.header])).toEqual([
        ['Name', true],
        ['Value', true],
      ]);
      expect(table.rows.length - table.headerRows).toBeGreaterThanOrEqual(2);
    }
    const bodyNames = tables.flatMap((table) => table.rows.slice(1).map((row) => row[0].text));
    expect(bodyNames).toEqual(Array.from({ length: 61 }, (_, i) => `r${i}`));
    for (const slide of deck.slides) expect(slide.lines).toBeLessThanOrEqual(MAX_BODY_LINES);
  });

  it('steps the font size down until a table fits one slide, but not below the floor', () => {
    const table = (rows: number) =>
      `## T\n\n| Name | Value |\n|---|---|\n${Array.from({ length: rows }, (_, i) => `| n${i} | ${i} |`).join('\n')}\n`;
    const fontOf = (rows: number) => plan(table(rows)).slides.flatMap(tablesOf)[0].fontSize;
    expect(fontOf(3)).toBe(14);
    const medium = plan(table(13));
    expect(medium.slides.flatMap(tablesOf)).toHaveLength(1);
    expect(medium.slides[0].items[0].lines * BODY_LINE_IN).toBeLessThanOrEqual(MAX_BODY_LINES * BODY_LINE_IN);
    expect(fontOf(13)).toBeLessThan(14);
    expect(fontOf(200)).toBe(9);
  });

  it('sizes columns from their content and fills the body width', () => {
    const deck = plan(
      '## T\n\n| # | Description | Code |\n|---|---|---|\n| 1 | A long description of the item that takes most of the room | QIBM_DB_SECADM |\n',
    );
    const [table] = deck.slides.flatMap(tablesOf);
    const [number, description, code] = table.colW;
    expect(number).toBeLessThan(code);
    expect(code).toBeLessThan(description);
    expect(code * 72).toBeGreaterThan('QIBM_DB_SECADM'.length * table.fontSize * 0.55);
    expect(table.colW.reduce((sum, w) => sum + w, 0)).toBeCloseTo(BODY.w);
  });

  it('drops the leader dots of a table of contents and repeats none of its entries as a header', () => {
    const entries = Array.from({ length: 50 }, (_, i) => `| Chapter ${i} . . . . . . . . . . | . ${i + 1} |`);
    const deck = plan(`## Contents\n\n${entries[0]}\n| - | - |\n${entries.slice(1).join('\n')}\n`);
    const tables = deck.slides.flatMap(tablesOf);
    expect(tables.length).toBeGreaterThan(1);
    expect(tables.every((table) => table.headerRows === 0)).toBe(true);
    expect(tables.flatMap((table) => table.rows.map((row) => row.map((cell) => cell.text)))).toEqual(
      Array.from({ length: 50 }, (_, i) => [`Chapter ${i}`, String(i + 1)]),
    );
  });

  it('repeats the text of a row-spanning cell on the slide where its rows continue', () => {
    const body = Array.from({ length: 60 }, (_, i) =>
      i === 0 ? '<tr><td rowspan="60">All</td><td>0</td></tr>' : `<tr><td>${i}</td></tr>`,
    );
    const deck = plan(`## T\n\n<table><tr><th>Group</th><th>N</th></tr>${body.join('')}</table>\n`);
    const tables = deck.slides.flatMap(tablesOf);
    expect(tables.length).toBeGreaterThan(1);
    for (const table of tables) {
      expect(table.rows[1][0]).toMatchObject({ text: 'All', rowspan: table.rows.length - 1 });
    }
  });

  it('continues a cell too tall for a slide in the rows below, over as many slides as it needs', () => {
    const text = words(2000);
    const deck = plan(`## Big\n\n| Note |\n|---|\n| ${text} |\n`);
    const tables = deck.slides.flatMap(tablesOf);
    expect(tables.length).toBeGreaterThan(1);
    const body = tables.flatMap((table) => table.rows.slice(table.headerRows).map((row) => row[0].text));
    expect(body.join(' ').split(/\s+/)).toEqual(text.split(/\s+/)); // every word, in order, none cut
    expect(tables.every((table) => table.rows[0][0].text === 'Note')).toBe(true); // the header repeats
    expect(deck.slides.every((slide) => slide.lines <= MAX_BODY_LINES)).toBe(true);
  });

  it('cuts a merged cell too tall for a slide with an ellipsis and keeps its text in the speaker notes', () => {
    const text = words(1500);
    const deck = plan(
      `## M\n\n<table><tr><th colspan="2">Head</th></tr><tr><td colspan="2">${text}</td></tr></table>\n`,
    );
    const [table] = deck.slides.flatMap(tablesOf);
    expect(table.rows[1][0].text.endsWith('…')).toBe(true);
    expect(deck.slides[0].notes).toEqual([text]);
  });

  it('keeps tables with HTML spans as spans', () => {
    const deck = plan(
      '## S\n\n<table><tr><th rowspan="2">R</th><th colspan="2">Sales</th></tr><tr><th>Q1</th><th>Q2</th></tr><tr><td>N</td><td>1</td><td>2</td></tr></table>\n',
    );
    const [table] = deck.slides.flatMap(tablesOf);
    expect(table.headerRows).toBe(2);
    expect(table.rows.map((row) => row.map((cell) => [cell.text, cell.rowspan, cell.colspan]))).toEqual([
      [
        ['R', 2, 1],
        ['Sales', 1, 2],
      ],
      [
        ['Q1', 1, 1],
        ['Q2', 1, 1],
      ],
      [
        ['N', 1, 1],
        ['1', 1, 1],
        ['2', 1, 1],
      ],
    ]);
  });

  it('places a header-only table', () => {
    const deck = plan('## H\n\n| Only a header |\n|---|\n');
    expect(deck.slides.flatMap(tablesOf).map((table) => table.rows[0][0].text)).toEqual(['Only a header']);
  });
});

describe('planDeck pictures', () => {
  const pictures = new Map<string, PictureSize>([
    ['images/wide.png', { width: 1920, height: 960 }],
    ['images/icon.png', { width: 48, height: 48 }],
  ]);

  it('fits a picture within the body, keeping its proportions and never enlarging it', () => {
    const deck = plan('## P\n\n![A chart](images/wide.png)\n\n![icon](images/icon.png)\n', 'p.md', pictures);
    const placed = deck.slides.flatMap(picturesOf);
    expect(placed.map((picture) => picture.alt)).toEqual(['A chart', 'icon']);
    const [wide, icon] = placed;
    expect(wide.w).toBeLessThanOrEqual(BODY.w);
    expect(wide.h).toBeLessThanOrEqual(MAX_BODY_LINES * BODY_LINE_IN);
    expect(wide.w / wide.h).toBeCloseTo(2);
    expect(icon).toMatchObject({ w: 0.5, h: 0.5 });
    for (const slide of deck.slides) expect(slide.lines).toBeLessThanOrEqual(MAX_BODY_LINES + 1e-9);
  });

  it('puts a picture below its text when it fits there at a useful size, else on the next slide', () => {
    const below = plan('## P\n\nA caption.\n\n![A chart](images/wide.png)\n', 'p.md', pictures);
    expect(below.slides).toHaveLength(1);
    expect(below.slides[0].items.map((item) => item.kind)).toEqual(['text', 'picture']);
    const full = plan(`## P\n\n${sentences(9).join('\n\n')}\n\n![A chart](images/wide.png)\n`, 'p.md', pictures);
    expect(full.slides).toHaveLength(2);
    expect(full.slides[1].items.map((item) => item.kind)).toEqual(['picture']);
  });

  it('writes the alt text of a picture it has no bytes for', () => {
    const deck = plan('## P\n\nSee ![A missing chart](images/gone.png) here.\n', 'p.md', pictures);
    expect(texts(deck.slides[0])).toEqual(['See here.', 'A missing chart']);
    expect(deck.slides.flatMap(picturesOf)).toEqual([]);
  });
});

describe('slide text measure', () => {
  it('wraps at word boundaries and on line breaks', () => {
    expect(wrapLines('aaa bbb ccc', 7)).toEqual([0, 8]);
    expect(wrapLines('aaa\nbbb', 80)).toEqual([0, 4]);
    expect(wrapLines('aaa bbb ccc ddd', 3, 4, 2)).toEqual([4, 8, 12]);
  });

  it('breaks a word longer than a line and counts wide characters double', () => {
    expect(wrapLines('abcdefghij', 4)).toEqual([0, 4, 8]);
    expect(wrapLines('가나다라', 4)).toEqual([0, 2]);
  });

  it('truncates to a number of lines with an ellipsis', () => {
    expect(truncateToLines('aaa bbb ccc ddd eee', 7, 2)).toBe('aaa bbb ccc dd…');
    expect(truncateToLines('short', 7, 2)).toBe('short');
  });

  it('finds sentence starts but not after initials or abbreviations', () => {
    const text = 'J. Smith wrote it, e.g. here. Then “this!” Next? 끝났다. 다음 Fig. 3 shows';
    expect(sentenceStarts(text).map((start) => text.slice(start, start + 4))).toEqual([
      'Then',
      'Next',
      '끝났다.',
      '다음 F',
    ]);
    expect(unitsPerLine(BODY.w, BODY_FONT_PT)).toBeGreaterThan(80);
  });
});
