import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { matchKey, STRUCTURED_RESULT_SCHEMA, type StructuredResult } from '@docconv/documents';

const validate: ValidateFunction = new Ajv2020({ allErrors: true, strict: true }).compile(
  STRUCTURED_RESULT_SCHEMA as object,
);

/** Kinds whose blocks must each have a page and a box. */
const PAGED = new Set(['pdf', 'image']);

export interface StructuredCheck {
  /** Everything wrong, each naming its block: empty when the result holds. */
  problems: string[];
  /** Share of the Markdown's non-whitespace characters inside some block's span. */
  coverage: number;
  blocks: number;
}

/**
 * Checks a structured result against its Markdown: the schema; every block's span slices the
 * Markdown to text holding the block's words in order (markup, escapes and link targets aside);
 * every block of a PDF or image has a page of the result and a box inside it; and how much of
 * the Markdown the blocks cover. Every block of a file without pages says where it stands in its
 * file (slide, sheet, seconds or block number).
 */
export function checkStructuredResult(markdown: string, result: unknown): StructuredCheck {
  const problems: string[] = [];
  if (!validate(result)) {
    return {
      problems: (validate.errors ?? []).map((e) => `schema: ${e.instancePath} ${e.message}`),
      coverage: 0,
      blocks: 0,
    };
  }
  const structured = result as StructuredResult;
  const points = Array.from(markdown);
  if (structured.markdown.length !== points.length) {
    problems.push(`markdown.length ${structured.markdown.length}, result.md has ${points.length} code points`);
  }
  const kinds = new Map(structured.files.map((file) => [file.name, file.kind]));
  const pages = new Map(structured.pages.map((page) => [`${page.file}\u0000${page.page}`, page]));
  const covered = new Uint8Array(points.length);
  for (const block of structured.blocks) {
    const name = `block ${block.id} (${block.type} "${block.text.slice(0, 40)}")`;
    if (block.markdown) {
      const [start, end] = block.markdown;
      if (start > end || end > points.length) problems.push(`${name}: span [${start}, ${end}) outside result.md`);
      const slice = points.slice(start, end).join('');
      covered.fill(1, start, end);
      const missing = missingWords(block.text, slice);
      if (missing) problems.push(`${name}: its text's word "${missing}" is not in its span "${slice.slice(0, 80)}"`);
    } else if (block.type !== 'page_header' && block.type !== 'page_footer') {
      problems.push(`${name}: no span, though only page furniture is left out of the Markdown`);
    }
    if (PAGED.has(kinds.get(block.file) ?? '')) {
      const page = pages.get(`${block.file}\u0000${block.page}`);
      if (!page || !block.box) problems.push(`${name}: no page or box`);
      else {
        const [left, top, right, bottom] = block.box;
        // A page that was not read and whose size is unknown has only its marked line, at no size.
        const [width, height] = [page.width ?? 0, page.height ?? 0];
        if (!(left >= 0 && top >= 0 && left <= right && top <= bottom && right <= width && bottom <= height)) {
          problems.push(`${name}: box ${JSON.stringify(block.box)} outside its page (${width} × ${height})`);
        }
      }
    } else if (!block.position || Object.keys(block.position).length === 0) {
      problems.push(`${name}: no position in its file, which has no pages`);
    }
  }
  let visible = 0;
  let inBlocks = 0;
  points.forEach((ch, i) => {
    if (/\s/.test(ch)) return;
    visible++;
    inBlocks += covered[i];
  });
  return { problems, coverage: visible === 0 ? 1 : inBlocks / visible, blocks: structured.blocks.length };
}

/**
 * The first word of `text` (a run of letters and digits) not found in `slice` after the words
 * before it, case folded; undefined when all are. Markup and link targets in the slice may
 * stand between them.
 */
function missingWords(text: string, slice: string): string | undefined {
  const haystack = matchKey(slice);
  let from = 0;
  for (const word of text.split(/[^\p{L}\p{N}]+/u)) {
    const key = matchKey(word);
    if (key === '') continue;
    const at = haystack.indexOf(key, from);
    if (at < 0) return word;
    from = at + key.length;
  }
  return undefined;
}
