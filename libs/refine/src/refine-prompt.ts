import type { ChatMessage } from './language-model';

export interface RefineInput {
  /** The page's Markdown as extraction produced it. */
  markdown: string;
  /** The user's own instructions; empty when they gave none. */
  prompt: string;
  /** Column names the user wants tables to use, in order; null when they gave none. */
  columns: string[] | null;
  /** How notes and the model name the page, e.g. `page 3` or `slide 2`. */
  pageLabel: string;
}

/**
 * The instructions for every page. They do not vary with the page or the user, so providers
 * that cache prompt prefixes can reuse them; what varies goes in the user message.
 */
export const REFINE_SYSTEM_PROMPT = [
  'You correct the Markdown of one page of a document that was converted to Markdown automatically.',
  'Return only the corrected Markdown of this page: no preface, no explanation, no code fence around it.',
  'Keep every piece of text on the page, with its wording and in its language: do not summarise, shorten, ' +
    'translate or leave anything out, and do not add text that is not on the page.',
  'Fix what the conversion got wrong:',
  '- put the text in its natural reading order (columns, sidebars, captions, footnotes);',
  '- mark headings with # levels that follow the structure of the page;',
  '- make lists proper Markdown lists;',
  '- rebuild tables as GitHub-Flavored Markdown tables: a header row, a separator row, one row per line;',
  '- join lines broken in the middle of a sentence, and words hyphenated at a line break.',
  'If the user lists table columns, use those names, in that order, as the header row of each table ' +
    'whose data they describe; leave other tables as they are.',
  'Follow the user instructions, if any, as long as they do not ask you to drop, summarise or translate text.',
].join('\n');

/** The conversation that asks a model to refine one page. */
export function refineMessages(request: RefineInput): ChatMessage[] {
  return [
    { role: 'system', content: REFINE_SYSTEM_PROMPT },
    { role: 'user', content: userMessage(request) },
  ];
}

/** The user's prompt and columns when given, then the page's Markdown, last so nothing follows it. */
function userMessage(request: RefineInput): string {
  const parts: string[] = [];
  const prompt = request.prompt.trim();
  if (prompt !== '') parts.push(`User instructions:\n${prompt}`);
  if (request.columns && request.columns.length > 0) {
    parts.push(`Table columns, in order: ${request.columns.map((name) => JSON.stringify(name)).join(', ')}`);
  }
  parts.push(`Markdown of ${request.pageLabel}:\n\n${request.markdown}`);
  return parts.join('\n\n');
}
