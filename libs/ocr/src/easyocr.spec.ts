import { DomainError } from '@docconv/contracts';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { EasyOcrEngine, easyOcrLanguages, reconcile, toLines } from './easyocr';
import type { GreyImage, OcrLine, OcrRequest } from './engine';
import { lineFromText } from './reading-order';
import { TesseractEngine } from './tesseract';

/** The engines' Python that scripts/setup.sh installs, with easyocr and its English weights. */
const PYTHON = join(__dirname, '..', '..', '..', '.venv-engines', 'bin', 'python');

/** Black text on white, rendered with DejaVu Sans, as 8-bit grey pixels. */
async function textImage(lines: string[], width = 1200): Promise<GreyImage> {
  const rows = lines
    .map(
      (line, i) =>
        `<text x="40" y="${80 + i * 70}" font-family="DejaVu Sans, NanumGothic" font-size="40">${line}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${120 + lines.length * 70}">
    <rect width="100%" height="100%" fill="white"/>${rows}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

function request(image: GreyImage, languages = ['eng']): OcrRequest {
  return { image, model: 'premium', languages };
}

describe('EasyOcrEngine with the real EasyOCR and its packaged weights', () => {
  let engine: EasyOcrEngine;
  beforeAll(async () => {
    expect(existsSync(PYTHON)).toBe(true); // scripts/setup.sh creates it
    engine = await EasyOcrEngine.create({ python: PYTHON });
  }, 180_000);
  afterAll(() => engine.close());

  it('loads the English weights only, and says so', () => {
    expect(engine.languages).toEqual(['en']);
  });

  it('reads printed lines in order, with boxes inside the image and confidence 0…100', async () => {
    const image = await textImage(['Quarterly report 2026', 'Revenue rose by twelve percent']);
    const result = await engine.recognize(request(image));
    expect(result.engine).toBe('easyocr');
    expect(result.notes).toEqual([]);
    expect(result.lines.map((l) => l.text.toLowerCase())).toEqual([
      'quarterly report 2026',
      'revenue rose by twelve percent',
    ]);
    for (const line of result.lines) {
      expect(line.box.x + line.box.width).toBeLessThanOrEqual(image.width);
      expect(line.box.y + line.box.height).toBeLessThanOrEqual(image.height);
      expect(line.confidence).toBeGreaterThan(30);
      expect(line.confidence).toBeLessThanOrEqual(100);
    }
  }, 60_000);

  it('without a Korean engine, reads a Korean request with the weights it has and says which are missing', async () => {
    const result = await engine.recognize(request(await textImage(['Annual review']), ['eng', 'kor']));
    expect(result.lines.map((l) => l.text.toLowerCase())).toEqual(['annual review']);
    expect(result.notes).toEqual(['EasyOCR has no weights for ko on this worker: read with en only']);
  }, 60_000);

  it('answers an image whose size does not match its bytes with an error, and goes on reading', async () => {
    await expect(engine.recognize(request({ width: 10, height: 10, data: Buffer.alloc(5) }))).rejects.toThrow(
      /EasyOCR: the image is empty or its size does not match: 10x10 with 5 bytes/,
    );
    const next = await engine.recognize(request(await textImage(['Still reading'])));
    expect(next.lines.map((l) => l.text.toLowerCase())).toEqual(['still reading']);
  }, 60_000);

  it('reads a page whose process is killed under it with a new process', async () => {
    const image = await textImage(['Page after a crash']);
    const pid = await engine.pid();
    const inFlight = engine.recognize(request(image));
    process.kill(pid!, 'SIGKILL');
    expect((await inFlight).lines.map((l) => l.text.toLowerCase())).toEqual(['page after a crash']);
    expect(await engine.pid()).not.toBe(pid);
    expect(engine.state()).toMatchObject({ name: 'easyocr', status: 'ready', restarts: 1, retries: 1 });
  }, 180_000);
});

describe('EasyOcrEngine with Tesseract beside it', () => {
  let engine: EasyOcrEngine;
  beforeAll(async () => {
    engine = await EasyOcrEngine.create({ python: PYTHON, tesseract: await TesseractEngine.create() });
  }, 180_000);
  afterAll(() => engine.close());

  it('on a page whose language the probes could not tell, hands the lines its English model cannot read to Tesseract', async () => {
    {
      const image = await textImage(['Annual review 2026', '한국어 문서 변환 서비스']);
      const result = await engine.recognize({ ...request(image, ['eng', 'kor']), model: 'basic' });
      expect(result.notes).toEqual([
        'Korean text read by tesseract (kor): EasyOCR has no Korean weights on this worker',
      ]);
      const text = result.lines.map((l) => l.text).join('\n');
      expect(text).toMatch(/annual review 2026/i);
      expect(text).toContain('한국어 문서 변환 서비스');
    }
  }, 180_000);

  it("premium reads every line again with Tesseract in one call and keeps the better reading of each; basic keeps EasyOCR's", async () => {
    const image = await textImage(['Annual review 2026', 'Revenue rose by twelve percent', 'Costs stayed flat']);
    const basic = await engine.recognize({ ...request(image, ['eng']), model: 'basic', pageLanguage: 'eng' });
    const premium = await engine.recognize({ ...request(image, ['eng']), model: 'premium', pageLanguage: 'eng' });
    expect(premium.calls).toBe(basic.calls + 1); // one Tesseract call reads all its lines again
    expect(premium.lines).toHaveLength(basic.lines.length);
    premium.lines.forEach((line, i) => {
      expect(line.text.toLowerCase()).toBe(basic.lines[i].text.toLowerCase());
      expect(line.confidence).toBeGreaterThanOrEqual(basic.lines[i].confidence);
      // Where a line stands, and how tall its words are, is the detector's, whoever read it.
      expect(line.box).toEqual(basic.lines[i].box);
      for (const word of line.words) expect([word.box.y, word.box.height]).toEqual([line.box.y, line.box.height]);
    });
    const replaced = premium.lines.filter((line, i) => line.confidence > basic.lines[i].confidence).length;
    expect(premium.notes).toEqual(
      replaced > 0 ? [`${replaced} ${replaced === 1 ? 'line' : 'lines'} read better by tesseract`] : [],
    );
  }, 120_000);
});

describe('reconciling two readings of a line', () => {
  const line = (text: string, confidence: number): OcrLine =>
    lineFromText(text, { x: 10, y: 10, width: 20 * text.length, height: 30 }, confidence);

  it("takes Tesseract's reading when it is the more confident", () => {
    const tesseract = line('Revenue rose by 12%', 93);
    expect(reconcile(line('Revenue rose by l2%', 71), tesseract)).toBe(tesseract);
  });

  it("keeps EasyOCR's surer reading, spelled with the accents and ß its model cannot write where Tesseract read them", () => {
    const merged = reconcile(line('GroBe Ubergange in Zurich', 90), line('Größe Übergänge in Zlrich', 70));
    expect(merged.text).toBe('Größe Übergänge in Zurich');
    expect(merged.confidence).toBe(90);
    expect(merged.words.map((w) => w.text)).toEqual(['Größe', 'Übergänge', 'in', 'Zurich']);
  });

  it("keeps EasyOCR's reading as it is when the words do not pair or are other words", () => {
    const easy = line('Deja vu a Zurich', 88);
    expect(reconcile(easy, line('Déjà vu à Zürich today', 80))).toBe(easy);
    expect(reconcile(easy, line('Dejo vo e Zorich', 60))).toBe(easy);
  });
});

describe('EasyOcrEngine start-up', () => {
  it('fails with engine_unavailable, naming the program, when the Python does not exist', async () => {
    const failure = EasyOcrEngine.create({ python: '/nonexistent/python3' });
    await expect(failure).rejects.toBeInstanceOf(DomainError);
    await expect(failure).rejects.toThrow(/EasyOCR did not start: could not be run \(\/nonexistent\/python3\)/);
  });

  it("fails with engine_unavailable, quoting its error, when the Python has not the engine's runtime", async () => {
    await expect(EasyOcrEngine.create({ python: 'python3' })).rejects.toThrow(
      /EasyOCR did not start: exited with code 2: easyocr_server: cannot load the runtime with \S*python3/,
    );
  });

  it('is available with the engines Python, and not without one', async () => {
    await expect(EasyOcrEngine.available(PYTHON)).resolves.toBe(true);
    await expect(EasyOcrEngine.available(undefined)).resolves.toBe(false);
    await expect(EasyOcrEngine.available('/nonexistent/python3')).resolves.toBe(false);
  }, 180_000);
});

describe('EasyOCR results', () => {
  it('maps our language codes to EasyOCR, always with English', () => {
    expect(easyOcrLanguages(['kor'])).toEqual(['en', 'ko']);
    expect(easyOcrLanguages(['eng', 'kor'])).toEqual(['en', 'ko']);
  });

  it('joins the pieces EasyOCR cuts a row into, but not pieces a column gutter apart', () => {
    const box = (x: number, y: number, width: number): [number, number][] => [
      [x, y],
      [x + width, y],
      [x + width, y + 30],
      [x, y + 30],
    ];
    const lines = toLines(
      [
        [box(285, 12, 60), 'as', 0.9],
        [box(100, 10, 150), '& duck/goose,', 0.8],
        [box(385, 14, 200), '12.5% of E-mail', 0.7],
        [box(1000, 10, 200), 'next column', 0.9],
        [box(100, 60, 200), 'second row', 0.9],
      ],
      { width: 1400, height: 200 },
    );
    // Left to right; the reading order comes after.
    expect(lines.map((l) => l.text)).toEqual(['& duck/goose, as 12.5% of E-mail', 'second row', 'next column']);
    expect(lines[0].box).toEqual({ x: 100, y: 10, width: 485, height: 34 });
    expect(lines[0].words.map((w) => w.text)).toEqual(['&', 'duck/goose,', 'as', '12.5%', 'of', 'E-mail']);
  });

  it('does not join the lines of two columns across a narrow gutter that the rows around it leave blank', () => {
    const box = (x: number, y: number, width: number): [number, number][] => [
      [x, y],
      [x + width, y],
      [x + width, y + 30],
      [x, y + 30],
    ];
    // Two columns 30 px apart (under one line height), four rows each.
    const rows = [0, 1, 2, 3].flatMap((r): [[number, number][], string, number][] => [
      [box(100, 10 + r * 40, 400), `left ${r}`, 0.9],
      [box(530, 10 + r * 40, 400), `right ${r}`, 0.9],
    ]);
    const lines = toLines(rows, { width: 1000, height: 200 });
    expect(lines.map((l) => l.text).sort()).toEqual(
      ['left 0', 'left 1', 'left 2', 'left 3', 'right 0', 'right 1', 'right 2', 'right 3'].sort(),
    );
  });

  it('turns boxes into lines within the image, dropping empty texts', () => {
    const lines = toLines(
      [
        [
          [
            [10, 10],
            [110, 10],
            [110, 40],
            [10, 40],
          ],
          'Hello world',
          0.9,
        ],
        [
          [
            [0, 50],
            [5, 50],
            [5, 60],
            [0, 60],
          ],
          '  ',
          0.5,
        ],
      ],
      { width: 100, height: 100 },
    );
    expect(lines.map((l) => [l.text, l.box.x, l.box.width, l.confidence])).toEqual([['Hello world', 10, 90, 90]]);
  });
});

describe("the EasyOCR server's boxes fitted to the page's ink (box_ink.py)", () => {
  /**
   * fit_to_ink of box_ink.py, run in the engines' Python on a white page 400 x 200 with black
   * rectangles standing for characters (each `[x, y, width, height]`), the detector's horizontal
   * boxes `[x_min, x_max, y_min, y_max]` (their margin of a quarter included) and its free boxes
   * (four corners): the horizontal boxes it gives back, and those it adds around ink no box holds.
   */
  function fitToInk(
    characters: number[][],
    boxes: number[][],
    free: number[][][] = [],
  ): { boxes: number[][]; unread: number[][] } {
    const script = [
      'import json, sys, numpy',
      `sys.path.insert(0, ${JSON.stringify(join(__dirname, '..', 'easyocr'))})`,
      'from box_ink import fit_to_ink',
      'page = numpy.full((200, 400), 255, dtype=numpy.uint8)',
      `for x, y, w, h in ${JSON.stringify(characters)}: page[y:y + h, x:x + w] = 0`,
      `fitted, unread = fit_to_ink(${JSON.stringify(boxes)}, page, 0.25, ${JSON.stringify(free)})`,
      'plain = lambda boxes: [[int(v) for v in box] for box in boxes]',
      'print(json.dumps({"boxes": plain(fitted), "unread": plain(unread)}))',
    ].join('\n');
    return JSON.parse(execFileSync(PYTHON, ['-c', script], { encoding: 'utf8' })) as {
      boxes: number[][];
      unread: number[][];
    };
  }
  // Characters 10 px wide and 20 px high on a line from y to y + 20, whose box stands from y - 5 to y + 25.
  const digit = (x: number, y = 20) => [x, y, 10, 20];

  it('widens a box over a decimal point and the digit after it, one piece bringing the next within reach', () => {
    // "26" boxed, ".7" left out: the point 3 px after the box's text, the 7 just after it.
    const { boxes, unread } = fitToInk([digit(20), digit(32), [45, 36, 4, 4], digit(51)], [[15, 47, 15, 45]]);
    expect(boxes).toEqual([[15, 66, 15, 45]]);
    expect(unread).toEqual([]);
  });

  it("takes a narrow first character in, but not a table's rule (taller than the line) nor another box's word", () => {
    const rule = [10, 0, 2, 200];
    const { boxes } = fitToInk(
      [rule, digit(16), digit(30), digit(42), digit(60), digit(72)],
      [
        [25, 57, 15, 45],
        [55, 87, 15, 45],
      ],
    );
    // The first reaches the 1 at x 16, not the rule at x 10 to 11.
    expect(boxes).toEqual([
      [11, 57, 15, 45],
      [55, 87, 15, 45],
    ]);
  });

  it('gives a dash between two boxes, within reach of both, to the first of them only', () => {
    const dash = [50, 30, 8, 3];
    const { boxes } = fitToInk(
      [digit(20), digit(32), dash, digit(67), digit(79)],
      [
        [15, 47, 15, 45],
        [62, 94, 15, 45],
      ],
    );
    expect(boxes).toEqual([
      [15, 63, 15, 45],
      [62, 94, 15, 45],
    ]);
  });

  it('cuts a box around three rows of two columns into a box per row and column; an underline stays with its line', () => {
    // Rows at y 20, 60 and 100 (gaps of 20 px), columns at x 20 and 200; the second row's first word underlined.
    const rows = [20, 60, 100].flatMap((y) => [digit(20, y), digit(32, y), digit(200, y), digit(212, y)]);
    const underline = [20, 82, 22, 2];
    const single = [
      [15, 47, 155, 185],
      [195, 227, 155, 185],
    ];
    const { boxes } = fitToInk(
      [...rows, underline, digit(20, 160), digit(32, 160), digit(200, 160), digit(212, 160)],
      [[15, 227, 15, 125], ...single],
    );
    expect(boxes).toEqual([
      [15, 47, 15, 45],
      [195, 227, 15, 45],
      [15, 47, 55, 89],
      [195, 227, 55, 89],
      [15, 47, 95, 125],
      [195, 227, 95, 125],
      ...single,
    ]);
  });

  it('cuts boxes around columns of close rows into a box per row when every box on the page is such a column', () => {
    // Three columns of four rows 10 px apart, each column in one box: the boxes' own heights are all alike.
    const columns = [20, 150, 280];
    const tops = [10, 40, 70, 100];
    const characters = columns.flatMap((x) => tops.flatMap((y) => [digit(x, y), digit(x + 12, y)]));
    const { boxes } = fitToInk(
      characters,
      columns.map((x) => [x - 5, x + 27, 5, 125]),
    );
    expect(boxes).toEqual(columns.flatMap((x) => tops.map((y) => [x - 5, x + 27, y - 5, y + 25])));
  });

  it('leaves whole a label set sideways where most boxes hold one line, however loosely the detector boxed them', () => {
    // Three lines boxed 10 px above and below their ink; a sideways label: six letters 11 px high, 4 px apart.
    const lines = [20, 150, 280].flatMap((x) => [digit(x, 20), digit(x + 12, 20)]);
    const letters = [0, 1, 2, 3, 4, 5].map((i) => [360, 80 + i * 15, 12, 11]);
    const boxes = [...[20, 150, 280].map((x) => [x - 5, x + 27, 10, 50]), [355, 377, 70, 176]];
    expect(fitToInk([...lines, ...letters], boxes).boxes).toEqual(boxes);
  });

  it("leaves a free box's word to it: a horizontal box beside it does not reach over it, nor is it read again", () => {
    const slanted = [
      [45, 15],
      [77, 15],
      [77, 45],
      [45, 45],
    ];
    const { boxes, unread } = fitToInk([digit(20), digit(32), digit(50), digit(62)], [[15, 47, 15, 45]], [slanted]);
    expect(boxes).toEqual([[15, 47, 15, 45]]);
    expect(unread).toEqual([]);
  });

  it('adds a box around a word no box holds, not around a speck or a bar taller than a line', () => {
    const speck = [300, 30, 3, 3];
    const bar = [350, 0, 8, 120];
    const { boxes, unread } = fitToInk([digit(20), digit(32), digit(150), digit(162), speck, bar], [[15, 47, 15, 45]]);
    expect(boxes).toEqual([[15, 47, 15, 45]]);
    expect(unread).toEqual([[145, 177, 15, 45]]);
  });

  it('adds a box around a word of small letters no box holds (a tick in a cell), not around a solid bullet as small', () => {
    // Both 9 px high (0.45 of the line): the letter's strokes fill under half its box, the bullet all of it.
    const letter = [
      [250, 30, 9, 1],
      [250, 38, 9, 1],
      [250, 30, 1, 9],
      [258, 30, 1, 9],
    ];
    const bullet = [300, 30, 9, 9];
    const { unread } = fitToInk([digit(20), digit(32), ...letter, bullet], [[15, 47, 15, 45]]);
    expect(unread).toEqual([[248, 261, 28, 41]]);
  });
});
