import type { PhrasingContent, RootContent } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/** Characters that can start inline Markdown (escapes, emphasis, code, links, images, raw HTML, autolinks). */
const INLINE_SYNTAX = /[\\*_~`[\]<>&!@]|:\/\/|www\./i;

/** Link and image targets kept in the HTML: web, mail and relative addresses; anything else is dropped. */
const SAFE_URL = /^(?:https?:|mailto:|[^:]*$)/i;

/**
 * One line of inline Markdown, as a GFM table cell reads it, written as HTML: emphasis, strikethrough,
 * code and links become their tags, escapes are undone and the rest is escaped text. Inside an HTML
 * block CommonMark reads no Markdown, so a table written as HTML needs its cells in this form.
 */
export function inlineHtml(line: string): string {
  if (!INLINE_SYNTAX.test(line)) return line;
  const tree = unified()
    .use(remarkParse)
    .use(remarkGfm)
    .parse(`| ${line.replace(/\|/g, '\\|')} |\n| --- |`);
  const table = tree.children[0];
  const cell = table?.type === 'table' ? table.children[0]?.children[0] : undefined;
  return cell ? cell.children.map(phrasingHtml).join('') : escapeHtml(line);
}

function phrasingHtml(node: PhrasingContent): string {
  const inner = (): string => ('children' in node ? node.children.map(phrasingHtml).join('') : '');
  switch (node.type) {
    case 'text':
      return escapeHtml(node.value);
    case 'strong':
      return `<strong>${inner()}</strong>`;
    case 'emphasis':
      return `<em>${inner()}</em>`;
    case 'delete':
      return `<del>${inner()}</del>`;
    case 'inlineCode':
      return `<code>${escapeHtml(node.value)}</code>`;
    case 'break':
      return '<br>';
    case 'link':
      return SAFE_URL.test(node.url) ? `<a href="${escapeHtml(node.url)}">${inner()}</a>` : inner();
    case 'image':
      return SAFE_URL.test(node.url) ? `<img src="${escapeHtml(node.url)}" alt="${escapeHtml(node.alt ?? '')}">` : '';
    case 'html':
      return escapeHtml(node.value);
    default:
      return escapeHtml(textOf(node));
  }
}

function textOf(node: RootContent): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  return 'children' in node ? (node.children as RootContent[]).map(textOf).join('') : '';
}

/** Text escaped for HTML content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return /[&<>"]/.test(text)
    ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
    : text;
}
