import { writeMarkdown } from '@docconv/model';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { extractDocxWithImages } from '../libs/documents/src/docx/extract-docx';
import { markdownHash } from '../tools/eval/markdown-hashes';
import { evalsetPath, readManifest } from './evalset';

/**
 * The DOCX reader builds the document model, and its Markdown is the model's writer's: for
 * every DOCX file of the evaluation set, that Markdown is byte for byte the Markdown the reader
 * wrote before it moved onto the model (hashes recorded by tools/eval/markdown-hashes from
 * that code, in markdown-hashes/docx.json), except for the files below, each with why the new
 * output is better.
 */
/** Table cells whose paragraphs are lines. */
const CELL_LINES =
  "a table cell's paragraphs and list items are lines of the cell (`<br>` between them), as in Word, rather than one run-on line";

const DIFFERENCES: Record<string, string> = {
  'docx/docx_external_image.docx':
    'a paragraph holding only a picture that is not stored and has no alternative text is left out; before, it left two stray blank lines',
  'docx/docx_checkboxes.docx': CELL_LINES,
  'docx/docx_rich_cells.docx': `${CELL_LINES}; a table nested in a cell stays in that cell (the outer table written as HTML, the nested one inside it) rather than following the outer table as if it stood after it`,
  'docx/docx_rich_tables_01.docx': CELL_LINES,
  'docx/test_emf_docx.docx':
    'the same for its two EMF pictures (not raster, so not stored, and without alternative text): no stray blank lines',
};

const recorded = JSON.parse(readFileSync(join(__dirname, 'markdown-hashes', 'docx.json'), 'utf8')) as Record<
  string,
  string
>;
const inputs = readManifest()
  .filter((row) => row.format === 'docx' && row.role === 'input')
  .map((row) => row.path);

describe('the DOCX reader on the document model', () => {
  it('covers every DOCX input of the evaluation set, and every file with a difference is one of them', () => {
    expect(inputs.length).toBeGreaterThan(0);
    expect(Object.keys(recorded).sort()).toEqual([...inputs].sort());
    for (const path of Object.keys(DIFFERENCES)) expect(inputs).toContain(path);
  });

  it.each(inputs)('%s: writes the Markdown it wrote before', async (path) => {
    // As the worker reads a job's first file: pictures taken out and linked under images/.
    const { markdown, document } = await extractDocxWithImages(evalsetPath(path), basename(path), undefined, 'images/');
    expect(markdown).toBe(writeMarkdown(document));
    expect(document.blocks.every((block) => block.from.file === basename(path) && block.written === undefined)).toBe(
      true,
    );
    const same = markdownHash(markdown) === recorded[path];
    expect({ path, same }).toEqual({ path, same: !(path in DIFFERENCES) });
  });
});
