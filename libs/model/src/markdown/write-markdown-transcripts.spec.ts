import { plain, type Document, type TranscriptBlock } from '../document';
import { timestamp, transcriptContent } from '../transcript';
import { writeMarkdown } from './write-markdown';

const said = (text: string, seconds?: [number, number], speaker?: string): TranscriptBlock => ({
  type: 'transcript',
  content: plain(text),
  from: { file: 'talk.mp3', ...(seconds ? { seconds } : {}) },
  ...(speaker === undefined ? {} : { speaker }),
});

const written = (...blocks: TranscriptBlock[]) => writeMarkdown({ version: 1, blocks } satisfies Document);

describe('writeMarkdown of transcript blocks', () => {
  it('leads each with its start time, one paragraph per segment', () => {
    expect(written(said('Hello there.', [0, 4.2]), said('Second line', [65.9, 70]))).toBe(
      '[00:00] Hello there.\n\n[01:05] Second line\n',
    );
  });

  it('writes the speaker after the time, and no time when the block has none', () => {
    expect(written(said('Hi.', [3, 4], 'Ann'), said('Untimed.'))).toBe('[00:03] Ann: Hi.\n\nUntimed.\n');
  });

  it('escapes what was said, not the time that leads it', () => {
    // `*` pairs into emphasis and a backtick opens code: both are escaped; the brackets of the time are not.
    expect(written(said('a *big* `deal`', [1, 2]))).toBe('[00:01] a \\*big\\* \\`deal\\`\n');
  });
});

describe('transcriptContent', () => {
  it('is the time, the speaker and the content, as plain runs the office writers show too', () => {
    expect(transcriptContent(said('Hi.', [61, 62], 'Ann'))).toEqual([
      { kind: 'text', text: '[01:01] ' },
      { kind: 'text', text: 'Ann: ' },
      { kind: 'text', text: 'Hi.' },
    ]);
  });
});

describe('timestamp', () => {
  it.each([
    [0, '00:00'],
    [9.99, '00:09'],
    [600, '10:00'],
    [3599.99, '59:59'],
    [3600, '1:00:00'],
    [36_125, '10:02:05'],
    [-2, '00:00'],
  ])('%s s → %s', (seconds, expected) => {
    expect(timestamp(seconds)).toBe(expected);
  });
});
