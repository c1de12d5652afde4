import { DomainError } from '@docconv/contracts';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EasyOcrEngine, easyOcrLanguages, easyOcrServerScript, toLines } from './easyocr';
import type { GreyImage, OcrRequest } from './engine';

const PYTHON = process.env.PYTHON ?? 'python3';
/** Speaks the server's protocol without easyocr (which cannot be installed here). */
const STAND_IN = join(__dirname, '..', '..', '..', 'test', 'support', 'easyocr-standin.py');

function blank(width: number, height: number): GreyImage {
  return { width, height, data: Buffer.alloc(width * height, 255) };
}

function request(image: GreyImage, languages = ['eng']): OcrRequest {
  return { image, model: 'premium', languages };
}

describe('EasyOcrEngine against the stand-in', () => {
  let engine: EasyOcrEngine;
  beforeAll(async () => {
    engine = await EasyOcrEngine.create({ python: PYTHON, script: STAND_IN });
  });
  afterAll(() => engine.close());

  it('returns the lines of a reply with their boxes, words and confidence converted', async () => {
    const result = await engine.recognize(request(blank(400, 200), ['eng', 'kor']));
    expect(result).toMatchObject({ engine: 'easyocr', width: 400, height: 200, notes: [] });
    expect(result.lines.map((l) => [l.text, l.box, l.confidence])).toEqual([
      ['stand-in 400x200 en+ko', { x: 40, y: 33, width: 200, height: 33 }, 90],
      ['second line', { x: 40, y: 99, width: 200, height: 33 }, 80],
    ]);
    expect(result.lines[1].words).toEqual([
      { text: 'second', confidence: 80, box: { x: 40, y: 99, width: 109, height: 33 } },
      { text: 'line', confidence: 80, box: { x: 167, y: 99, width: 73, height: 33 } },
    ]);
    expect(result.confidence).toBeCloseTo((90 * 3 + 80 * 2) / 5, 5);
  });

  it('reports a reply with an error as a failed read and goes on reading', async () => {
    await expect(engine.recognize(request({ width: 0, height: 0, data: Buffer.alloc(0) }))).rejects.toThrow(
      'EasyOCR could not read the image: the image is empty',
    );
    const next = await engine.recognize(request(blank(30, 20)));
    expect(next.lines[0].text).toBe('stand-in 30x20 en');
  });
});

describe('EasyOcrEngine with several pages in flight', () => {
  it('matches replies to requests by id when they come back in another order', async () => {
    const engine = await EasyOcrEngine.create({ python: PYTHON, script: STAND_IN, env: { EASYOCR_STANDIN_HOLD: '3' } });
    try {
      const sizes = [
        [100, 50],
        [200, 60],
        [300, 70],
      ];
      const results = await Promise.all(sizes.map(([w, h]) => engine.recognize(request(blank(w, h)))));
      expect(results.map((r) => r.lines[0].text)).toEqual(sizes.map(([w, h]) => `stand-in ${w}x${h} en`));
      expect(results.map((r) => r.width)).toEqual([100, 200, 300]);
    } finally {
      await engine.close();
    }
  });
});

describe('EasyOcrEngine when the process dies', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'easyocr-spec-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('fails the pages in flight and starts a new process for the next page', async () => {
    const marker = join(folder, 'crashed');
    const engine = await EasyOcrEngine.create({
      python: PYTHON,
      script: STAND_IN,
      env: { EASYOCR_STANDIN_CRASH_ONCE: marker },
    });
    try {
      const inFlight = [engine.recognize(request(blank(40, 40))), engine.recognize(request(blank(50, 50)))];
      for (const page of inFlight) {
        await expect(page).rejects.toThrow(/exited with code 3: easyocr stand-in: exiting in the middle of a request/);
      }
      expect(existsSync(marker)).toBe(true);
      const next = await engine.recognize(request(blank(60, 60)));
      expect(next.lines[0].text).toBe('stand-in 60x60 en');
    } finally {
      await engine.close();
    }
  });
});

describe('EasyOcrEngine start-up', () => {
  it('fails with engine_unavailable, naming the program and script, when easyocr is not installed', async () => {
    const script = easyOcrServerScript();
    const failure = EasyOcrEngine.create({ python: PYTHON, script });
    await expect(failure).rejects.toBeInstanceOf(DomainError);
    await expect(failure).rejects.toMatchObject({ code: 'engine_unavailable' });
    await expect(failure).rejects.toThrow(`EasyOCR did not start (${PYTHON} ${script}): exited with code 2`);
    await expect(failure).rejects.toThrow('cannot import easyocr');
  });

  it('gives up on a process that never becomes ready', async () => {
    const started = Date.now();
    const failure = EasyOcrEngine.create({
      python: PYTHON,
      script: STAND_IN,
      env: { EASYOCR_STANDIN_SILENT: '1' },
      readyTimeoutMs: 500,
    });
    await expect(failure).rejects.toThrow('no ready line within 0.5 s');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses to read once closed', async () => {
    const engine = await EasyOcrEngine.create({ python: PYTHON, script: STAND_IN });
    await engine.close();
    await expect(engine.recognize(request(blank(10, 10)))).rejects.toThrow('closed');
  });
});

describe('EasyOcrEngine.available', () => {
  it('is false with the real server here, where easyocr is not installed, and answers promptly', async () => {
    const started = Date.now();
    await expect(EasyOcrEngine.available(PYTHON, easyOcrServerScript(), 30_000)).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('is true for a server that becomes ready', async () => {
    await expect(EasyOcrEngine.available(PYTHON, STAND_IN)).resolves.toBe(true);
  });

  it('is false without a Python or with one that does not exist', async () => {
    await expect(EasyOcrEngine.available(undefined)).resolves.toBe(false);
    await expect(EasyOcrEngine.available(join(tmpdir(), 'no-such-python'), STAND_IN)).resolves.toBe(false);
  });
});

describe('easyOcrServerScript', () => {
  it('finds the server script of this repository', () => {
    const script = easyOcrServerScript();
    expect(script.endsWith(join('libs', 'ocr', 'easyocr', 'easyocr_server.py'))).toBe(true);
    expect(existsSync(script)).toBe(true);
  });
});

describe('easyOcrLanguages', () => {
  it("maps our language codes to EasyOCR's and always includes English", () => {
    expect(easyOcrLanguages(['eng', 'kor'])).toEqual(['en', 'ko']);
    expect(easyOcrLanguages(['kor'])).toEqual(['en', 'ko']);
    expect(easyOcrLanguages(['eng'])).toEqual(['en']);
    expect(easyOcrLanguages([])).toEqual(['en']);
  });
});

describe('toLines', () => {
  it('turns results into lines within the image and drops empty texts', () => {
    const lines = toLines(
      [
        [
          [
            [-4, 10.5],
            [120.2, 9],
            [121, 40],
            [-3, 41.7],
          ],
          ' total 42 ',
          0.5,
        ],
        [
          [
            [0, 50],
            [10, 50],
            [10, 60],
            [0, 60],
          ],
          '  ',
          0.9,
        ],
      ],
      { width: 100, height: 100 },
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ text: 'total 42', confidence: 50, box: { x: 0, y: 9, width: 100, height: 33 } });
  });
});
