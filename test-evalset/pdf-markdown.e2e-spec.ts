import { structuredResult } from '@docconv/documents';
import { writeMarkdown } from '@docconv/model';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashOf, manifestInputs, workerExtraction as readInput } from '../tools/eval/markdown-hashes';
import { checkStructuredResult } from '../test/support/structured-result-check';
import { EVALSET_DIR, evalsetPath } from './evalset';

/** The hashes of the Markdown the PDF reader made before it built the document model (tools/eval/markdown-hashes.ts). */
const BEFORE: Record<string, string> = JSON.parse(
  readFileSync(join(__dirname, 'markdown-hashes', 'pdf.json'), 'utf8'),
) as Record<string, string>;

/** A difference from the Markdown written before the model: why the new one is better, and how to undo it exactly. */
interface Difference {
  why: string;
  /** The new Markdown turned back into the old: its hash must be the one recorded, so nothing else changed. */
  undo: (markdown: string) => string;
}

/** Consecutive footnote definitions one per line (the writer's rule, as DOCX wrote them); before, a blank line between. */
const FOOTNOTES_ONE_PER_LINE: Difference = {
  why: "footnote definitions go one per line, as the writer writes every reader's; GFM shows them the same",
  undo: (markdown) => markdown.replace(/^(\[\^[^\n]*)\n(?=\[\^)/gm, '$1\n\n'),
};

/**
 * Dev-set PDFs whose Markdown differs from what the reader wrote before it built the model, each
 * with why the new Markdown is better and how to undo the change. Every other file is byte for byte the same.
 */
const DIFFERENCES: Record<string, Difference> = {
  // Before: a lone line break. A page with nothing on it has no blocks, and the writer writes no blocks as nothing.
  'pdf/olmocr_blank_book_pg1.pdf': {
    why: 'a blank page is an empty Markdown file, as every reader writing the model makes it',
    undo: (markdown) => (markdown === '' ? '\n' : markdown),
  },
  'pdf/redp5110_sampled.pdf': FOOTNOTES_ONE_PER_LINE,
  'pdf/icdar2013_eu-011.pdf': FOOTNOTES_ONE_PER_LINE,
  'pdf/icdar2013_eu-026.pdf': FOOTNOTES_ONE_PER_LINE,
  'pdf/icdar2013_us-001.pdf': FOOTNOTES_ONE_PER_LINE,
  'pdf/icdar2013_us-020.pdf': FOOTNOTES_ONE_PER_LINE,
  'pdf/icdar2013_us-027.pdf': FOOTNOTES_ONE_PER_LINE,
};

/**
 * The PDF reader builds a document and its Markdown is the model's writer's: for every dev-set
 * PDF (OCR fixed to Tesseract basic, as the hashes were made), sha256(writeMarkdown(document))
 * is the hash recorded from the reader before the model, but for the differences listed; and the
 * structured result places each of its blocks by the document (checked as the worker's results are).
 */
describe('PDF reader → document model → Markdown, byte for byte as before', () => {
  const inputs = manifestInputs(EVALSET_DIR, 'pdf');

  it('covers every dev-set PDF, each recorded, and lists only differences of files in the set', () => {
    expect(inputs.length).toBeGreaterThanOrEqual(81);
    expect(Object.keys(BEFORE).sort()).toEqual([...inputs].sort());
    for (const path of Object.keys(DIFFERENCES)) expect(inputs).toContain(path);
  });

  it.each(inputs)(
    '%s',
    async (relative) => {
      const difference = DIFFERENCES[relative];
      const hash = await hashOf(evalsetPath(relative), async (path) => {
        const extraction = await readInput(path);
        expect(extraction.document).toBeDefined();
        const markdown = writeMarkdown(extraction.document!);
        expect(extraction.markdown).toBe(markdown);
        // The structured result places every block by the document: on a page, in a box inside it, never estimated.
        const result = structuredResult(markdown, [
          {
            file: relative,
            kind: 'pdf',
            start: 0,
            end: markdown.length,
            headed: false,
            pages: extraction.placed,
            reports: extraction.pages,
            document: extraction.document,
          },
        ]);
        expect(checkStructuredResult(markdown, result).problems).toEqual([]);
        expect(result.blocks.filter((block) => block.box_estimated)).toEqual([]);
        if (difference) expect(markdown).not.toBe(difference.undo(markdown));
        return difference ? difference.undo(markdown) : markdown;
      });
      expect(hash).toBe(BEFORE[relative]);
    },
    600_000,
  );
});
