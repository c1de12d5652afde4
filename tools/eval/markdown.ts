/**
 * Markdown as a reader's renderer sees it, for the scorer's structure and hygiene metrics: the
 * CommonMark parse with GFM (tables, strikethrough, autolinks, task lists), the same parser the
 * product renders office files with, but on the text exactly as written, so that every node's
 * source offsets point into the Markdown being scored.
 */
import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

const processor = unified().use(remarkParse).use(remarkGfm);

/** The mdast tree of a Markdown text, with source positions. */
export function parseCommonMark(markdown: string): Root {
  return processor.parse(markdown);
}

/** What a reader reads of a node: its text and code, image alt texts, a space for a line break; no raw HTML. */
export function inlineText(node: Nodes): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
    case 'code':
      return node.value;
    case 'break':
      return ' ';
    case 'html':
      return '';
    case 'image':
    case 'imageReference':
      return node.alt ?? '';
    default:
      return 'children' in node ? (node.children as Nodes[]).map(inlineText).join('') : '';
  }
}
