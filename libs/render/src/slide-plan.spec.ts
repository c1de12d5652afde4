import { documentBlocks } from './document-blocks';
import { parseMarkdown } from './markdown-tree';
import {
  BODY,
  BODY_FONT_PT,
  MAX_BODY_LINES,
  paragraphCost,
  paragraphUnits,
  planDeck,
  truncateToLines,
  unitsPerLine,
  wrapLines,
  type DeckPlan,
  type PlannedSlide,
  type SlideParagraph,
  type SlideTable,
} from './slide-plan';
import * as textWidth from './text-width';

// The text measure, counted by the linear-time test (the real functions, wrapped).
jest.mock('./text-width', () => {
  const actual = jest.requireActual<typeof import('./text-width')>('./text-width');
  return { ...actual, displayWidth: jest.fn(actual.displayWidth), isWide: jest.fn(actual.isWide) };
});
import { displayWidth } from './text-width';

function plan(markdown: string, title = 'Deck'): DeckPlan {
  return planDeck(documentBlocks(parseMarkdown(markdown)), title);
}

function paragraphsOf(slide: PlannedSlide): SlideParagraph[] {
  return slide.items.flatMap((item) => (item.kind === 'text' ? item.paragraphs : []));
}

function tablesOf(slide: PlannedSlide): SlideTable[] {
  return slide.items.flatMap((item) => (item.kind === 'table' ? [item.table] : []));
}

/** Body lines a slide's content takes, recomputed from the text itself rather than from the plan's totals. */
function recomputedLines(slide: PlannedSlide): number {
  return slide.items.reduce((sum, item) => {
    if (item.kind === 'table') return sum + item.lines;
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

describe('planDeck sections', () => {
  it('takes a lone top heading as the document title and splits at the next level', () => {
    const deck = plan(
      '# Annual Report\n\nIntro.\n\n## Sales\n\nUp.\n\n### Detail\n\nMore.\n\n## Costs\n\nDown.\n',
      'report.pdf',
    );
    expect(deck.subtitle).toBe('Annual Report');
    expect(deck.slides.map((slide) => slide.title)).toEqual(['Annual Report', 'Sales', 'Costs']);
    expect(paragraphsOf(deck.slides[1]).map((p) => [p.text, p.style])).toEqual([
      ['Up.', 'body'],
      ['Detail', 'subheading'],
      ['More.', 'body'],
    ]);
  });

  it('gives no subtitle when the top heading repeats the title', () => {
    expect(plan('# Deck\n\n## A\n\ntext\n').subtitle).toBeNull();
  });

  it('splits at the highest level present and titles leading content with the document title', () => {
    const deck = plan('Preface.\n\n### One\n\na\n\n### Two\n\nb\n', 'Notes');
    expect(deck.slides.map((slide) => slide.title)).toEqual(['Notes', 'One', 'Two']);
  });

  it('puts a document without headings on slides titled with the title', () => {
    const deck = plan('Just text.\n\nMore text.\n', 'Plain');
    expect(deck.slides).toHaveLength(1);
    expect(deck.slides[0].title).toBe('Plain');
    expect(paragraphsOf(deck.slides[0]).map((p) => p.text)).toEqual(['Just text.', 'More text.']);
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

  it('adds link addresses after the linked words', () => {
    const deck = plan('## L\n\nSee [the site](https://example.com) now.\n');
    expect(paragraphsOf(deck.slides[0])[0].text).toBe('See the site (https://example.com) now.');
  });
});

describe('planDeck pagination', () => {
  it('continues a long section on "(cont.)" slides without exceeding the line budget', () => {
    const lines = Array.from({ length: 60 }, (_, i) => `Point number ${i + 1}`);
    const deck = plan(`## Long\n\n${lines.map((line) => `- ${line}`).join('\n')}\n`);
    expect(deck.slides.length).toBeGreaterThanOrEqual(Math.ceil(60 / MAX_BODY_LINES));
    expect(deck.slides[0].title).toBe('Long');
    expect(deck.slides.slice(1).every((slide) => slide.title === 'Long (cont.)')).toBe(true);
    for (const slide of deck.slides) {
      expect(paragraphsOf(slide).length).toBeLessThanOrEqual(MAX_BODY_LINES);
      expect(recomputedLines(slide)).toBeLessThanOrEqual(MAX_BODY_LINES);
    }
    expect(deck.slides.flatMap(paragraphsOf).map((p) => p.text)).toEqual(lines);
  });

  it('splits one paragraph longer than a slide between lines, losing no words', () => {
    const text = words(900);
    const deck = plan(`## Essay\n\n${text}\n`);
    expect(deck.slides.length).toBeGreaterThan(2);
    const perSlide = unitsPerLine(BODY.w - 0.2, BODY_FONT_PT) * MAX_BODY_LINES;
    for (const slide of deck.slides) {
      expect(recomputedLines(slide)).toBeLessThanOrEqual(MAX_BODY_LINES);
      expect(paragraphsOf(slide).reduce((sum, p) => sum + displayWidth(p.text), 0)).toBeLessThanOrEqual(perSlide);
    }
    expect(
      deck.slides
        .flatMap(paragraphsOf)
        .map((p) => p.text)
        .join(' '),
    ).toBe(text);
  });

  it('splits a very long paragraph in linear time: ten times the words, about ten times the text measured', () => {
    // The work is counted, not timed: the characters handed to the text measure, and each character weighed.
    const measured = jest.mocked(textWidth.displayWidth);
    const weighed = jest.mocked(textWidth.isWide);
    const work = (count: number) => {
      measured.mockClear();
      weighed.mockClear();
      const deck = plan(`## Dump\n\n${words(count)}\n`);
      expect(deck.slides.every((slide) => slide.lines <= MAX_BODY_LINES)).toBe(true);
      return {
        deck,
        characters: measured.mock.calls.reduce((n, [text]) => n + text.length, 0) + weighed.mock.calls.length,
      };
    };
    const small = work(4_000);
    const large = work(40_000);
    expect(large.deck.slides.length).toBeGreaterThan(100);
    expect(large.characters / small.characters).toBeLessThan(15);
  });

  it('counts Hangul as wide, so Korean text needs more slides than as many Latin letters', () => {
    const korean = Array.from({ length: 500 }, () => '한국어').join(' ');
    const latin = Array.from({ length: 500 }, () => 'abc').join(' ');
    const koreanDeck = plan(`## 본문\n\n${korean}\n`);
    expect(koreanDeck.slides.length).toBeGreaterThan(plan(`## Body\n\n${latin}\n`).slides.length);
    expect(koreanDeck.slides[1].title).toBe('본문 (cont.)');
    for (const slide of koreanDeck.slides) expect(recomputedLines(slide)).toBeLessThanOrEqual(MAX_BODY_LINES);
  });

  it('keeps a numbered item split across slides numbered once', () => {
    const deck = plan(`## Steps\n\n1. short\n2. ${words(400)}\n3. last\n`);
    const items = deck.slides.flatMap(paragraphsOf);
    expect(items.filter((p) => p.bullet === 'number').map((p) => p.number)).toEqual([1, 2, 3]);
    expect(items.filter((p) => p.bullet === 'none').length).toBeGreaterThan(0);
  });

  it('splits a long table by rows, repeating its header on every slide', () => {
    const rows = Array.from({ length: 50 }, (_, i) => `| r${i} | ${i * 10} |`).join('\n');
    const deck = plan(`## Data\n\n| Name | Value |\n|---|---|\n${rows}\n`);
    const tables = deck.slides.flatMap(tablesOf);
    expect(tables.length).toBeGreaterThan(1);
    for (const table of tables)
      expect(table.rows[0].map((cell) => [cell.text, cell.header])).toEqual([
        ['Name', true],
        ['Value', true],
      ]);
    const bodyNames = tables.flatMap((table) => table.rows.slice(1).map((row) => row[0].text));
    expect(bodyNames).toEqual(Array.from({ length: 50 }, (_, i) => `r${i}`));
    for (const slide of deck.slides) expect(slide.lines).toBeLessThanOrEqual(MAX_BODY_LINES);
  });

  it('repeats the text of a row-spanning cell on the slide where its rows continue', () => {
    const body = Array.from({ length: 40 }, (_, i) =>
      i === 0 ? '<tr><td rowspan="40">All</td><td>0</td></tr>' : `<tr><td>${i}</td></tr>`,
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
});

describe('wrapLines', () => {
  it('wraps at word boundaries and on line breaks', () => {
    expect(wrapLines('aaa bbb ccc', 7)).toEqual([0, 8]);
    expect(wrapLines('aaa\nbbb', 80)).toEqual([0, 4]);
  });

  it('breaks a word longer than a line and counts wide characters double', () => {
    expect(wrapLines('abcdefghij', 4)).toEqual([0, 4, 8]);
    expect(wrapLines('가나다라', 4)).toEqual([0, 2]);
  });

  it('truncates to a number of lines with an ellipsis', () => {
    expect(truncateToLines('aaa bbb ccc ddd eee', 7, 2)).toBe('aaa bbb ccc dd…');
    expect(truncateToLines('short', 7, 2)).toBe('short');
  });
});
