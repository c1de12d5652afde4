import { countCall, ReadingTimeout, type OcrLine, type ReadingPass } from './engine';
import { sureReading, TesseractEngine, textLines } from './tesseract';
import { doubtfulRuns, foreignLine, stackPieces, surerLines } from './tesseract-pieces';
import { lineText, parseTsv } from './tesseract-tsv';
import { textImage } from './testing/text-image';

describe('Tesseract TSV', () => {
  it('groups words into lines and paragraphs with their boxes and confidence', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '1\t1\t0\t0\t0\t0\t0\t0\t800\t600\t-1\t',
      '4\t1\t1\t1\t1\t0\t10\t20\t200\t30\t-1\t',
      '5\t1\t1\t1\t1\t1\t10\t20\t90\t30\t96.5\tHello',
      '5\t1\t1\t1\t1\t2\t110\t22\t100\t28\t93.5\tworld',
      '5\t1\t1\t2\t1\t1\t10\t80\t60\t30\t80\tNext',
      '5\t1\t1\t2\t1\t2\t80\t80\t60\t30\t-1\t ',
    ].join('\n');
    const lines = parseTsv(tsv);
    expect(lines.map((l) => [l.text, l.paragraph])).toEqual([
      ['Hello world', '1.1'],
      ['Next', '1.2'],
    ]);
    expect(lines[0].box).toEqual({ x: 10, y: 20, width: 200, height: 30 });
    expect(lines[0].confidence).toBe(95);
  });
});

describe('Tesseract words', () => {
  const header = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';
  const row = (line: number, word: number, x: number, text: string, conf = 90, height = 20, y = 0) =>
    `5\t1\t1\t1\t${line}\t${word}\t${x}\t${y + line * 40}\t18\t${height}\t${conf}\t${text}`;

  it("joins the syllables Tesseract's text writes together into words, whatever their gaps", () => {
    // 보도 일시: 도 and 일 stand as far apart as 보 and 도, but Tesseract's text has a space there.
    const tsv = [header, row(1, 1, 0, '보'), row(1, 2, 24, '도'), row(1, 3, 48, '일'), row(1, 4, 72, '시')].join('\n');
    const [line] = parseTsv(tsv, '보도 일시\n\f');
    expect(line.text).toBe('보도 일시');
    expect(line.words.map((w) => [w.text, w.box.x, w.box.width])).toEqual([
      ['보도', 0, 42],
      ['일시', 48, 42],
    ]);
  });

  it("keeps the spaces of Tesseract's text between syllables that touch, and across lines", () => {
    const tsv = [header, row(1, 1, 0, '담'), row(1, 2, 19, '당'), row(2, 1, 0, '자'), row(2, 2, 19, 'OK')].join('\n');
    expect(parseTsv(tsv, '담 당\n\n자OK\n').map((l) => l.text)).toEqual(['담 당', '자OK']);
  });

  it('falls back to the gaps when the text is missing', () => {
    const tsv = [header, row(1, 1, 0, '보'), row(1, 2, 19, '도'), row(1, 3, 48, '일')].join('\n');
    expect(parseTsv(tsv).map((l) => l.text)).toEqual(['보도 일']);
  });

  it("weighs a word's confidence by its characters and leaves a syllable's overlong box out of its height", () => {
    const tsv = [header, row(1, 1, 0, '관', 90), row(1, 2, 19, '심', 30, 41), row(1, 3, 38, '을', 90)].join('\n');
    const [line] = parseTsv(tsv, '관심을\n');
    expect(line.words).toHaveLength(1);
    expect(line.words[0].confidence).toBeCloseTo(70);
    expect(line.box.height).toBe(20);
  });

  it('leaves out lines of marks: what the engine reads with little confidence is not text', () => {
    const tsv = [header, row(1, 1, 0, '@폭', 20), row(1, 2, 30, '베:', 10), row(2, 1, 0, '누리', 93)].join('\n');
    expect(textLines(parseTsv(tsv, '@폭 베:\n누리\n')).map((l) => l.text)).toEqual(['누리']);
  });
});

describe('a sure reading', () => {
  const line = (text: string, confidence: number): OcrLine => ({
    text,
    confidence,
    box: { x: 0, y: 0, width: 10, height: 10 },
    words: [{ text, confidence, box: { x: 0, y: 0, width: 10, height: 10 } }],
  });

  it('is text read with at least the confidence asked for, a stray mark or two aside', () => {
    expect(sureReading([line('The board approved the budget', 92), line('~', 20)], 85)).toBe(true);
    expect(sureReading([line('The board approved the budget', 80)], 85)).toBe(false);
  });

  it('is not one whose lines mostly fell among the marks, however surely the rest was read', () => {
    // What a page in the wrong language or upside down looks like: a figure read well, the rest noise.
    expect(sureReading([line('2021', 95), line('ilo Ji1l ,,iil JI', 30), line('1ii_ ll!i', 25)], 85)).toBe(false);
  });
});

describe('the tesseract engine', () => {
  const lines = ['Invoice 2041 for Hanbit Trading', 'Total due within thirty days'];

  it.each(['basic', 'premium'] as const)('reads a clean page with the %s model, natively', async (model) => {
    const engine = await TesseractEngine.create({ runtime: 'native' });
    try {
      const result = await engine.recognize({ image: await textImage(lines), model, languages: ['eng'] });
      expect(result.lines.map((l) => l.text)).toEqual(lines);
      expect(result.confidence).toBeGreaterThan(85);
      expect(result.lines[0].words[0].box.x).toBeGreaterThan(40);
    } finally {
      await engine.close();
    }
  });

  it.each(['basic', 'premium'] as const)(
    'with the %s model, gives up after its first reading when a guessed language reads it poorly',
    async (model) => {
      const engine = await TesseractEngine.create({ runtime: 'native' });
      try {
        const image = await textImage(lines);
        const request = { image, model, languages: ['eng', 'kor'], giveUpBelow: 85 };
        // Read in Korean, English text reads far below 85: no second mode, no cleaned-up copy.
        const wrong = await engine.recognize({ ...request, pageLanguage: 'kor' });
        expect(wrong.unsure).toBe(true);
        expect(wrong.calls).toBe(1);
        const right = await engine.recognize({ ...request, pageLanguage: 'eng' });
        expect(right.unsure).toBeUndefined();
        expect(right.lines.map((l) => l.text)).toEqual(lines);
      } finally {
        await engine.close();
      }
    },
    30_000,
  );

  it('reads a Korean page without Latin lines (premium) in Korean alone: no second reading of the page', async () => {
    const engine = await TesseractEngine.create({ runtime: 'native' });
    try {
      const korean = ['과학기술정보통신부는 우리나라 최초로 순수 우리기술로', '개발 중인 한국형발사체의 새로운 이름'];
      const image = await textImage(korean, { font: 'NanumGothic', size: 40 });
      const request = { image, model: 'premium' as const, pageLanguage: 'kor' };
      const alone = await engine.recognize({ ...request, languages: ['kor'] });
      const result = await engine.recognize({ ...request, languages: ['eng', 'kor'] });
      expect(result.lines.map((l) => l.text)).toEqual(korean);
      // The job's English is not read over the page: as many calls as with Korean alone.
      expect(result.calls).toBe(alone.calls);
      expect(result.notes.filter((note) => note.includes('in eng'))).toEqual([]);
    } finally {
      await engine.close();
    }
  }, 30_000);

  it('falls back to tesseract.js with the npm language data, reading the same page', async () => {
    const engine = await TesseractEngine.create({ runtime: 'wasm' });
    try {
      expect(engine.runtime).toBe('wasm');
      const result = await engine.recognize({ image: await textImage(lines), model: 'basic', languages: ['eng'] });
      expect(result.lines.map((l) => l.text)).toEqual(lines);
    } finally {
      await engine.close();
    }
  }, 60_000);
});

describe('line text', () => {
  const word = (text: string, x: number, width: number) => ({
    text,
    confidence: 90,
    box: { x, y: 0, width, height: 40 },
  });

  it('joins Korean syllables that touch and keeps the spaces that are there', () => {
    // 보도 일시: two syllables touching, a space, two more touching.
    const words = [word('보', 0, 38), word('도', 40, 38), word('일', 100, 38), word('시', 140, 38)];
    expect(lineText(words)).toBe('보도 일시');
  });

  it('always separates Latin words', () => {
    expect(lineText([word('New', 0, 60), word('York', 62, 80)])).toBe('New York');
  });
});

describe('two readings of a page', () => {
  const line = (text: string, x: number, y: number, width: number, confidence: number, paragraph = '1.1'): OcrLine => ({
    text,
    box: { x, y, width, height: 20 },
    confidence,
    words: [{ text, box: { x, y, width, height: 20 }, confidence }],
    paragraph,
  });

  it('keeps each line from the surer reading of the same place, and its own paragraph', () => {
    const korean = [line('한국형발사체(5ㄷ-2)의', 0, 0, 300, 60), line('누리가 선정되었다', 0, 40, 280, 95)];
    const english = [
      line('Sh(KSLV-2)2|', 2, 1, 296, 80, '7.1'),
      line('T7t Ao', 0, 40, 120, 30),
      line('x', 500, 500, 10, 99),
    ];
    const { lines, replaced } = surerLines(korean, english);
    expect(lines.map((l) => [l.text, l.paragraph])).toEqual([
      ['Sh(KSLV-2)2|', '1.1'],
      ['누리가 선정되었다', '1.1'],
    ]);
    expect(replaced).toBe(1);
  });
});

describe('lines of a Korean reading that are another script', () => {
  const line = (text: string, confidence: number): OcrLine => ({
    text,
    confidence,
    box: { x: 0, y: 0, width: 10, height: 10 },
    words: [{ text, confidence, box: { x: 0, y: 0, width: 10, height: 10 } }],
  });

  it('are what the Korean model makes of a Latin line: figures, jamo and stray syllables, read doubtfully', () => {
    // 'Korea Space Launch Vehicle II, first flight 2021' through the Korean model.
    expect(foreignLine(line('(063 50306ㄴ340 \\2196 1, 사디아12021', 24))).toBe(true);
  });

  it('are not Korean lines with figures, lines read surely, nor a stray mark', () => {
    expect(foreignLine(line('담당과장 장인숙(02-2110-2430) 담당자 용찬재 사무관', 81))).toBe(false);
    expect(foreignLine(line('한국형발사체(5ㄷ-2)의 새로운 이름으로', 60))).toBe(false);
    expect(foreignLine(line('2018. 9. 4.(화)', 92))).toBe(false);
    expect(foreignLine(line('8', 39))).toBe(false);
  });
});

describe('a reading pass', () => {
  it("counts its calls and refuses one once the page's safety valve has fired", async () => {
    const stop = new AbortController();
    const pass: ReadingPass = { signal: stop.signal, calls: 0 };
    expect(await countCall(pass, () => Promise.resolve(7))).toBe(7);
    expect(pass.calls).toBe(1);
    stop.abort();
    await expect(countCall(pass, () => Promise.resolve(8))).rejects.toBeInstanceOf(ReadingTimeout);
    expect(pass.calls).toBe(1);
  });

  it('kills a native reading in hand when the valve fires, and says so', async () => {
    const engine = await TesseractEngine.create({ runtime: 'native' });
    const stop = new AbortController();
    const image = { width: 2400, height: 3300, data: Buffer.alloc(2400 * 3300, 255) };
    const reading = engine.recognize({ image, model: 'premium', languages: ['eng', 'kor'], signal: stop.signal });
    setTimeout(() => stop.abort(), 50);
    await expect(reading).rejects.toBeInstanceOf(ReadingTimeout);
    await engine.close();
  });
});

describe('doubtful pieces of Korean words', () => {
  const part = (text: string, x: number, confidence: number) => ({
    text,
    confidence,
    box: { x, y: 10, width: 18, height: 20 },
  });

  it('are the runs of pieces without a Hangul syllable read with little confidence, last first', () => {
    // 한국형발사체(5ㄷ-2)의: what the Korean model makes of (KSLV-2).
    const parts = [part('체', 0, 95), part('(5', 20, 56), part('ㄷ', 40, 0), part('-2)', 60, 2), part('의', 80, 93)];
    const word = { text: '체(5ㄷ-2)의', box: { x: 0, y: 10, width: 98, height: 20 }, confidence: 60, parts };
    expect(doubtfulRuns(word)).toEqual([
      { start: 1, end: 4, box: { x: 20, y: 10, width: 58, height: 20 }, confidence: expect.closeTo(19.7, 1) },
    ]);
  });

  it('leave alone figures read surely, punctuation alone and Korean', () => {
    const sure = {
      text: '1.5톤급',
      box: { x: 0, y: 0, width: 60, height: 20 },
      confidence: 92,
      parts: [part('1.5', 0, 91), part('톤', 20, 93), part('급', 40, 92)],
    };
    const dash = { text: '-', box: { x: 0, y: 0, width: 8, height: 20 }, confidence: 20 };
    const hangul = { text: '누리', box: { x: 0, y: 0, width: 40, height: 20 }, confidence: 30 };
    expect([sure, dash, hangul].map(doubtfulRuns)).toEqual([[], [], []]);
  });

  it('are cut out with a white margin and stacked one under another', () => {
    const image = { width: 4, height: 2, data: Buffer.from([0, 1, 2, 3, 4, 5, 6, 7]) };
    const { image: stack, slots } = stackPieces(image, [
      { x: 1, y: 0, width: 2, height: 1 },
      { x: 0, y: 1, width: 1, height: 1 },
    ]);
    expect([stack.width, stack.height]).toEqual([14, 26]);
    expect(slots).toEqual([
      { top: 0, bottom: 13 },
      { top: 13, bottom: 26 },
    ]);
    expect([stack.data[6 * 14 + 6], stack.data[6 * 14 + 7], stack.data[6 * 14 + 8]]).toEqual([1, 2, 255]);
    expect(stack.data[19 * 14 + 6]).toBe(4);
  });
});
