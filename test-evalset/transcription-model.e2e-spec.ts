import { writeMarkdown } from '@docconv/model';
import type { Transcriber } from '@docconv/transcription';
import { join } from 'node:path';
import {
  manifestInputs,
  markdownHash,
  RECORDING_FORMATS,
  workerTranscriber,
  workerTranscript,
} from '../tools/eval/markdown-hashes';
import { EVALSET_DIR } from './evalset';
import { recordedHashes, type Differences } from './markdown-hashes/check';

/**
 * Transcripts on the document model: every dev-set recording (audio and video) is transcribed as
 * the worker transcribes it, with faster-whisper and Whisper base from the engines' Python, into
 * a document whose Markdown must be byte for byte what the transcript's own Markdown writer made
 * before (hashes in markdown-hashes/<format>.json, recorded from that code), except for the
 * recordings listed here with why the new Markdown is better. One listed whose Markdown no
 * longer differs fails too, so the list stays true. The speech engine is deterministic on the
 * CPU: the hashes were recorded twice alike.
 */
const DIFFERENCES: Record<string, Differences> = { audio: {}, video: {} };

describe('recordings transcribed into the document model', () => {
  let transcriber: Transcriber;
  beforeAll(async () => {
    transcriber = await workerTranscriber();
  }, 180_000);
  afterAll(() => transcriber.close());

  it.each([...RECORDING_FORMATS])(
    'writes every dev-set %s input as it was recorded, or as listed in DIFFERENCES',
    async (format) => {
      const recorded = recordedHashes(format);
      const verdicts: Record<string, string> = {};
      for (const path of manifestInputs(EVALSET_DIR, format)) {
        const { markdown, document } = await workerTranscript(join(EVALSET_DIR, path), transcriber);
        expect(document).toBeDefined();
        expect(writeMarkdown(document!)).toBe(markdown);
        expect(document!.blocks.some((block) => block.type === 'transcript')).toBe(true);
        // Every segment is a transcript block that says when it was said, within the recording's file.
        for (const block of document!.blocks.filter((b) => b.type === 'transcript'))
          expect(block.from).toEqual({ file: path.split('/')[1], seconds: [expect.any(Number), expect.any(Number)] });
        verdicts[path] = markdownHash(markdown) === recorded[path] ? 'same' : 'different';
      }
      const expected = Object.fromEntries(
        Object.keys(recorded).map((path) => [path, path in DIFFERENCES[format] ? 'different' : 'same']),
      );
      expect(verdicts).toEqual(expected);
      expect(Object.keys(verdicts).length).toBeGreaterThan(0);
    },
    300_000,
  );
});
