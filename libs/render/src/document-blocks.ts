import type { List, ListItem, Root, RootContent } from 'mdast';
import { htmlSegments } from './html-tables';
import { inlineRuns, plainText, runsText, type InlineRun } from './markdown-tree';
import { tableFromGfm, tableFromHtml, type Table } from './table-model';

export interface HeadingBlock {
  kind: 'heading';
  depth: number;
  runs: InlineRun[];
  text: string;
}

export interface ParagraphBlock {
  kind: 'paragraph';
  runs: InlineRun[];
  text: string;
  /** Inside a block quote. */
  quote: boolean;
}

export interface ListItemBlock {
  kind: 'listItem';
  ordered: boolean;
  /** Nesting depth, 0 for a top-level list. */
  level: number;
  /** Identifies the list the item belongs to, so numbering restarts with each list. */
  list: number;
  /** The list's first number (ordered lists). */
  start: number;
  /** The item's own number: `start` plus its position in the list. */
  number: number;
  runs: InlineRun[];
  text: string;
  /** A further paragraph of the same item, written indented without a bullet. */
  continuation: boolean;
}

export interface CodeBlock {
  kind: 'code';
  lang: string | null;
  text: string;
}

export interface TableBlock {
  kind: 'table';
  table: Table;
}

export interface RuleBlock {
  kind: 'rule';
}

/** The document as a flat sequence of blocks, which is all the renderers need from the tree. */
export type Block = HeadingBlock | ParagraphBlock | ListItemBlock | CodeBlock | TableBlock | RuleBlock;

interface WalkContext {
  quote: boolean;
  nextList: number;
}

/**
 * Flattens the tree into blocks: nested lists become list items with a level, HTML tables become tables,
 * HTML comments are dropped and other raw HTML is kept as its text. Empty paragraphs are left out.
 */
export function documentBlocks(root: Root): Block[] {
  const blocks: Block[] = [];
  const context: WalkContext = { quote: false, nextList: 0 };
  for (const node of root.children) walkBlock(node, context, blocks);
  return blocks;
}

function walkBlock(node: RootContent, context: WalkContext, out: Block[]): void {
  switch (node.type) {
    case 'heading': {
      const runs = inlineRuns(node.children);
      out.push({ kind: 'heading', depth: node.depth, runs, text: runsText(runs).trim() });
      return;
    }
    case 'paragraph': {
      const runs = trimRuns(inlineRuns(node.children));
      if (runs.length > 0) out.push({ kind: 'paragraph', runs, text: runsText(runs), quote: context.quote });
      return;
    }
    case 'list':
      walkList(node, 0, context, out);
      return;
    case 'code':
      out.push({ kind: 'code', lang: node.lang ?? null, text: node.value });
      return;
    case 'table':
      out.push({ kind: 'table', table: tableFromGfm(node) });
      return;
    case 'html':
      walkHtml(node.value, context, out);
      return;
    case 'blockquote':
      for (const child of node.children) walkBlock(child, { ...context, quote: true }, out);
      return;
    case 'thematicBreak':
      out.push({ kind: 'rule' });
      return;
    case 'footnoteDefinition': {
      const text = `[^${node.identifier}]: ${node.children.map((child) => plainText(child)).join(' ')}`;
      out.push({ kind: 'paragraph', runs: [plainRun(text)], text, quote: context.quote });
      return;
    }
    default:
      pushPlainText(plainText(node), context, out);
  }
}

function walkList(list: List, level: number, context: WalkContext, out: Block[]): void {
  const id = context.nextList++;
  const start = list.start ?? 1;
  list.children.forEach((item, index) =>
    walkListItem(item, { list, id, level, start, number: start + index }, context, out),
  );
}

interface ItemPosition {
  list: List;
  id: number;
  level: number;
  start: number;
  number: number;
}

function walkListItem(item: ListItem, position: ItemPosition, context: WalkContext, out: Block[]): void {
  const base = {
    kind: 'listItem' as const,
    ordered: position.list.ordered === true,
    level: position.level,
    list: position.id,
    start: position.start,
    number: position.number,
  };
  const checkbox = item.checked === true ? '☑ ' : item.checked === false ? '☐ ' : '';
  let wroteItem = false;
  for (const child of item.children) {
    if (child.type === 'paragraph') {
      const runs = trimRuns(inlineRuns(child.children));
      const withBox = wroteItem || !checkbox ? runs : [plainRun(checkbox), ...runs];
      out.push({ ...base, runs: withBox, text: runsText(withBox), continuation: wroteItem });
      wroteItem = true;
    } else if (child.type === 'list') {
      if (!wroteItem) out.push({ ...base, runs: [], text: '', continuation: false });
      wroteItem = true;
      walkList(child, position.level + 1, context, out);
    } else {
      walkBlock(child, context, out);
    }
  }
  if (!wroteItem) out.push({ ...base, runs: [], text: '', continuation: false });
}

/** Raw HTML: tables become table blocks, the text around them paragraphs; comments disappear. */
function walkHtml(html: string, context: WalkContext, out: Block[]): void {
  for (const segment of htmlSegments(html)) {
    if (segment.kind === 'table') out.push({ kind: 'table', table: tableFromHtml(segment.table) });
    else pushPlainText(segment.text, context, out);
  }
}

function pushPlainText(text: string, context: WalkContext, out: Block[]): void {
  const trimmed = text.trim();
  if (trimmed) out.push({ kind: 'paragraph', runs: [plainRun(trimmed)], text: trimmed, quote: context.quote });
}

function plainRun(text: string): InlineRun {
  return { text, bold: false, italic: false, strike: false, code: false, link: null };
}

/** Drops leading and trailing whitespace of a paragraph (left by removed HTML, for example). */
function trimRuns(runs: InlineRun[]): InlineRun[] {
  const trimmed = runs.map((run) => ({ ...run }));
  while (trimmed.length > 0 && trimmed[0].text.trim() === '') trimmed.shift();
  while (trimmed.length > 0 && trimmed[trimmed.length - 1].text.trim() === '') trimmed.pop();
  if (trimmed.length === 0) return [];
  trimmed[0].text = trimmed[0].text.trimStart();
  trimmed[trimmed.length - 1].text = trimmed[trimmed.length - 1].text.trimEnd();
  return trimmed;
}

/** The text of the heading that comes last before each table, for naming sheets and slides. */
export function nearestHeadings(blocks: Block[]): Map<TableBlock, string | null> {
  const headings = new Map<TableBlock, string | null>();
  let heading: string | null = null;
  for (const block of blocks) {
    if (block.kind === 'heading') heading = block.text;
    else if (block.kind === 'table') headings.set(block, heading);
  }
  return headings;
}
