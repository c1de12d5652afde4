import type { InlineRun } from '../markdown/emphasis';
import { hwpjsInlineRuns } from './hwpjs-inline';

describe('hwpjsInlineRuns', () => {
  it('reads stretches written back to back, spaces inside their delimiters included', () => {
    expect(hwpjsInlineRuns('공모에는** 약 6,300여명의 ****국민이 참여**하여')).toEqual([
      { kind: 'text', text: '공모에는' },
      { kind: 'text', text: ' 약 6,300여명의 ', strike: false, bold: true, italic: false },
      { kind: 'text', text: '국민이 참여', strike: false, bold: true, italic: false },
      { kind: 'text', text: '하여' },
    ]);
  });

  it('reads bold, italic and strikethrough nested as hwpjs writes them', () => {
    expect(hwpjsInlineRuns('***둘 다***와 ~~**지움**~~')).toEqual([
      { kind: 'text', text: '둘 다', strike: false, bold: true, italic: true },
      { kind: 'text', text: '와 ' },
      { kind: 'text', text: '지움', strike: true, bold: true, italic: false },
    ]);
    expect(hwpjsInlineRuns('*기울임***굵게**')).toEqual([
      { kind: 'text', text: '기울임', strike: false, bold: false, italic: true },
      { kind: 'text', text: '굵게', strike: false, bold: true, italic: false },
    ]);
  });

  it('keeps asterisks and tildes that open nothing as text', () => {
    expect(hwpjsInlineRuns('면적 5*3 m, 기간 600~800km')).toEqual([
      { kind: 'text', text: '면적 5*3 m, 기간 600~800km' },
    ]);
    expect(hwpjsInlineRuns('**주의** 별표(*)는 필수')).toEqual([
      { kind: 'text', text: '주의', strike: false, bold: true, italic: false },
      { kind: 'text', text: ' 별표(*)는 필수' },
    ]);
  });

  it('reads a lone asterisk as text rather than as italic when both readings fit', () => {
    expect(hwpjsInlineRuns('면적 5*3 m 및 **굵게** 그리고 2*4')).toEqual([
      { kind: 'text', text: '면적 5*3 m 및 ' },
      { kind: 'text', text: '굵게', strike: false, bold: true, italic: false },
      { kind: 'text', text: ' 그리고 2*4' },
    ]);
    expect(hwpjsInlineRuns('**5*3**은 *15*')).toEqual([
      { kind: 'text', text: '5*3', strike: false, bold: true, italic: false },
      { kind: 'text', text: '은 ' },
      { kind: 'text', text: '15', strike: false, bold: false, italic: true },
    ]);
  });

  it('never closes a stretch across a line break or leaves one without text', () => {
    expect(hwpjsInlineRuns('*가<br>나* ** **')).toEqual([
      { kind: 'text', text: '*가' },
      { kind: 'break', markdown: '<br>' },
      { kind: 'text', text: '나* ** **' },
    ]);
  });

  it('keeps HTML tags as they are and reads <br> as a line break', () => {
    expect(hwpjsInlineRuns('**가**<br>나<sup>2</sup>')).toEqual([
      { kind: 'text', text: '가', strike: false, bold: true, italic: false },
      { kind: 'break', markdown: '<br>' },
      { kind: 'text', text: '나' },
      { kind: 'raw', markdown: '<sup>' },
      { kind: 'text', text: '2' },
      { kind: 'raw', markdown: '</sup>' },
    ]);
  });
});

/** A small deterministic generator, so a failure names a case that can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Text with its formatting, as a string, adjacent pieces with the same formatting joined. */
function flatten(runs: InlineRun[]): string[] {
  const out: string[] = [];
  let last = '';
  for (const run of runs) {
    if (run.kind !== 'text') continue;
    const style = `${run.strike ? 's' : ''}${run.bold ? 'b' : ''}${run.italic ? 'i' : ''}`;
    if (style === last && out.length > 0) out[out.length - 1] += run.text;
    else out.push(`${style}:`, run.text);
    last = style;
  }
  return out;
}

describe('hwpjsInlineRuns on lines written the way hwpjs writes them', () => {
  /**
   * Stretches of random text and formatting, written as hwpjs writes them, must read back as they
   * were. Two italic stretches side by side are left out: `*a**b**c*` is also what hwpjs writes for
   * "*a", bold "b" and "c*", and the reader takes the bold.
   */
  it('reads back every stretch of text without asterisks or tildes', () => {
    const next = random(11);
    const alphabet = ['가', '나', 'a', ' ', '.', '“', '”', '(', '1'];
    for (let n = 0; n < 3000; n++) {
      const stretches: InlineRun[] = [];
      let line = '';
      let previous = '';
      for (let k = 1 + Math.floor(next() * 6); k > 0; k--) {
        let text = '';
        for (let i = 1 + Math.floor(next() * 5); i > 0; i--) text += alphabet[Math.floor(next() * alphabet.length)];
        const style = { strike: next() < 0.2, bold: next() < 0.5, italic: next() < 0.3 };
        const opener = `${style.strike ? '~~' : ''}${style.bold ? '**' : ''}${style.italic ? '*' : ''}`;
        if (text.trim() === '' || (opener === '*' && previous === '*')) continue;
        line += `${opener}${text}${[...opener].reverse().join('')}`;
        stretches.push(opener ? { kind: 'text', text, ...style } : { kind: 'text', text });
        previous = opener;
      }
      expect({ line, runs: flatten(hwpjsInlineRuns(line)) }).toEqual({ line, runs: flatten(stretches) });
    }
  });
});
