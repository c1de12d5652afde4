import type { Nodes, Parent, Root, RootContent } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/** Markdown as the renderers and the console read it: CommonMark with GFM. */
export function parseMarkdown(markdown: string): Root {
  return unified().use(remarkParse).use(remarkGfm).parse(markdown);
}

/** A character as the parse shows it, with its formatting: `b` strong, `i` emphasis, `s` delete (sorted). */
export interface FormattedChar {
  char: string;
  flags: string;
}

/** Every character of the parse's text nodes, in order, with the formatting around it. */
export function formattedChars(markdown: string): FormattedChar[] {
  const chars: FormattedChar[] = [];
  const visit = (node: Nodes, flags: string): void => {
    if (node.type === 'text') {
      const sorted = [...flags].sort().join('');
      for (const char of node.value) chars.push({ char, flags: sorted });
      return;
    }
    const own = node.type === 'strong' ? 'b' : node.type === 'emphasis' ? 'i' : node.type === 'delete' ? 's' : '';
    if ('children' in node) for (const child of node.children) visit(child, flags + own);
  };
  visit(parseMarkdown(markdown), '');
  return chars;
}

/** The parse as spans of equally formatted text, e.g. `[['이름', 'b'], ['으로', '']]`. */
export function formattedSpans(markdown: string): [string, string][] {
  const spans: [string, string][] = [];
  for (const { char, flags } of formattedChars(markdown)) {
    const last = spans.at(-1);
    if (last && last[1] === flags) last[0] += char;
    else spans.push([char, flags]);
  }
  return spans;
}

/**
 * Delimiters the parse shows as text: each of `**`, `*`, `_` and `~` that its text nodes hold more
 * (or fewer) times than `literal`, the text the reader should see (none of them by default), does.
 */
export function leftoverDelimiters(markdown: string, literal = ''): string[] {
  const shown = formattedChars(markdown)
    .map((c) => c.char)
    .join('');
  const count = (text: string, delimiter: string) => text.split(delimiter).length - 1;
  return ['**', '*', '_', '~']
    .filter((d) => count(shown, d) !== count(literal, d))
    .map((d) => `${d} shown ${count(shown, d)} times for ${count(literal, d)}`);
}

/** Inline nodes that mean literal text was read as syntax. */
const SYNTAX = new Set([
  'break',
  'delete',
  'emphasis',
  'footnoteReference',
  'html',
  'image',
  'imageReference',
  'inlineCode',
  'linkReference',
  'strong',
]);

/**
 * The text of a node's descendants, and the syntax read among them. A link GFM makes of a bare
 * address (`www.example.com`, `https://…`, an email address) shows the text as written and counts as text.
 */
export function readInline(node: Nodes): { text: string; syntax: string[] } {
  if (node.type === 'text') return { text: node.value, syntax: [] };
  const parts = 'children' in node ? node.children.map(readInline) : [];
  const text = parts.map((p) => p.text).join('');
  const syntax = parts.flatMap((p) => p.syntax);
  if (SYNTAX.has(node.type)) syntax.push(node.type);
  if (node.type === 'link' && ![text, `http://${text}`, `mailto:${text}`].includes(node.url)) syntax.push('link');
  return { text, syntax };
}

/** The blocks a parse (or a list item) holds, as `type: text` with any syntax read inside them. */
export function blocksOf(parent: string | Root | Parent): string[] {
  const blocks: RootContent[] = (typeof parent === 'string' ? parseMarkdown(parent) : parent).children;
  return blocks.map((block) => {
    const { text, syntax } = readInline(block);
    const kind = block.type === 'heading' ? `heading${block.depth}` : block.type;
    return `${kind}: ${text}${syntax.length ? ` [${syntax.join(', ')}]` : ''}`;
  });
}
