import { structuredResult } from '@docconv/documents';
import { writeMarkdown } from '@docconv/model';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashOf, manifestInputs, workerExtraction as readInput } from '../tools/eval/markdown-hashes';
import { checkStructuredResult } from '../test/support/structured-result-check';
import { EVALSET_DIR, evalsetPath } from './evalset';

/**
 * The hashes of the Markdown the PDF reader writes for each dev-set PDF (tools/eval/markdown-hashes.ts,
 * OCR fixed to Tesseract basic). Until 0e9a491 they were those of the reader before it built the
 * document model, and this spec listed and undid each difference of the port (footnote definitions
 * one per line, a blank page as an empty file); since the port is complete they are recorded anew
 * whenever the reader's Markdown changes on purpose, in a commit that gives the eval figures before
 * and after (the table fixes of 816d82c and 8069b63 changed 18 of the ICDAR 2013 documents; web
 * addresses broken at a line end, rejoined without a space, changed 5; dot leaders dropped from
 * ruled tables' cells changed 1; the PDFs' own web links carried onto the words they cover changed 8;
 * headings from evidence — a run of heading-type lines that reads as a paragraph, a list or a
 * sentence is body text, italic sub-headings, an initial not a list's letter, levels closed up — changed 29;
 * figures rendered from the page as it shows them, a picture and its mask once, drawn charts as pictures, changed 10;
 * a run-in heading's bold or italic words opening a paragraph kept in their weight, changed 20; a formula
 * set large is no heading, and a sentence runs on only in the same size of type, changed 2; ink
 * from one side of a page to the other is the page's own, not a figure, changed 1 back; a drawing under more text left in the flow
 * than it labels is no figure, and its rules reach only where no such text is, changed 3).
 */
const RECORDED: Record<string, string> = JSON.parse(
  readFileSync(join(__dirname, 'markdown-hashes', 'pdf.json'), 'utf8'),
) as Record<string, string>;

describe('PDF reader → document model → Markdown, byte for byte as recorded', () => {
  const inputs = manifestInputs(EVALSET_DIR, 'pdf');

  it('covers every dev-set PDF, each recorded', () => {
    expect(inputs.length).toBeGreaterThanOrEqual(81);
    expect(Object.keys(RECORDED).sort()).toEqual([...inputs].sort());
  });

  it.each(inputs)(
    '%s',
    async (relative) => {
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
        return markdown;
      });
      expect(hash).toBe(RECORDED[relative]);
    },
    600_000,
  );
});
