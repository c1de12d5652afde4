import { basename, join } from 'node:path';
import { structuredResult } from '@docconv/documents';
import { writeMarkdown } from '@docconv/model';
import { checkStructuredResult } from '../test/support/structured-result-check';
import { workerExtraction } from '../tools/eval/markdown-hashes';
import { EVALSET_DIR } from './evalset';
import { checkHashes, recordedHashes, type Differences } from './markdown-hashes/check';

/**
 * Images (OCR'd frames) on the document model: they are laid out by the PDF layout, whose
 * document names the image as every block's file, with each frame as its page. For every dev-set
 * image the document's Markdown is byte for byte what the image reader wrote before the model
 * (markdown-hashes/image.json, recorded from main at fa21e4d with OCR fixed to Tesseract basic),
 * but for the inputs listed here with why the new Markdown is better.
 */
const DIFFERENCES: Differences = {};

describe('the image reader on the document model', () => {
  it('writes every dev-set image as it was recorded, or as listed in DIFFERENCES', async () => {
    const expected = Object.fromEntries(
      Object.keys(recordedHashes('image')).map((path) => [path, path in DIFFERENCES ? 'different' : 'same']),
    );
    expect(await checkHashes('image')).toEqual(expected);
  }, 600_000);
});

describe('an image document', () => {
  it('names the image on every block, places each on its frame in pixels, and its structured result by that provenance', async () => {
    for (const relative of Object.keys(recordedHashes('image'))) {
      const extraction = await workerExtraction(join(EVALSET_DIR, relative));
      const document = extraction.document!;
      expect(document.blocks.length).toBeGreaterThan(0);
      for (const block of document.blocks) {
        expect(block.from.file).toBe(basename(relative));
        expect(block.from.page).toBeGreaterThanOrEqual(1);
        expect(block.from.box).toHaveLength(4);
      }
      // The structured result places every block by the document: on a frame, in a box inside it, never estimated.
      const markdown = writeMarkdown(document);
      expect(extraction.markdown).toBe(markdown);
      const result = structuredResult(markdown, [
        {
          file: basename(relative),
          kind: 'image',
          start: 0,
          end: markdown.length,
          headed: false,
          pages: extraction.placed,
          reports: extraction.pages,
          document,
        },
      ]);
      expect(checkStructuredResult(markdown, result).problems).toEqual([]);
      const written = result.blocks.filter((block) => block.markdown !== null);
      expect(written.length).toBeGreaterThan(0);
      expect(written.filter((block) => block.box_estimated || !block.box)).toEqual([]);
      expect(written.map((block) => block.box)).toEqual(
        document.blocks.filter((block) => block.type !== 'furniture').map((block) => block.from.box),
      );
    }
  }, 600_000);
});
