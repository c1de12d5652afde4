import type { Block, Document, Inline, Style } from '@docconv/model';
import type { List, PhrasingContent, RootContent } from 'mdast';
import { parseMarkdown, plainText, withoutStrayMarkers } from './markdown-tree';

/**
 * Markdown read into the document model, for the renderers while `readMarkdown` of @docconv/model is being
 * written: the same signature, so its call sites switch to that one by changing their import, and this file
 * goes. GFM tables become table blocks (their cells' emphasis kept), raw HTML stays raw (the renderers read
 * its tables), nested lists become items with their depth, footnote definitions footnote blocks.
 */
export function readMarkdown(markdown: string, file: string): Document {
  const blocks: Block[] = [];
  const from = { file };
  const walk = (node: RootContent, quote: boolean): void => {
    switch (node.type) {
      case 'heading':
        blocks.push({ type: 'heading', from, level: node.depth, content: inlines(node.children) });
        return;
      case 'paragraph':
        blocks.push({ type: 'paragraph', from, content: inlines(node.children), ...(quote ? { quote } : {}) });
        return;
      case 'list':
        walkList(node, 0);
        return;
      case 'code':
        blocks.push({ type: 'code', from, text: node.value, ...(node.lang ? { language: node.lang } : {}) });
        return;
      case 'table':
        blocks.push({
          type: 'table',
          from,
          headerRows: 1,
          rows: node.children.map((row) =>
            row.children.map((cell) => ({ content: inlines(cell.children), rowspan: 1, colspan: 1 })),
          ),
        });
        return;
      case 'html':
        blocks.push({ type: 'raw', from, text: node.value });
        return;
      case 'blockquote':
        for (const child of node.children) walk(child, true);
        return;
      case 'thematicBreak':
        blocks.push({ type: 'separator', from });
        return;
      case 'footnoteDefinition': {
        const content = node.children.flatMap((child, index): Inline[] => [
          ...(index > 0 ? [{ kind: 'break' as const }] : []),
          ...(child.type === 'paragraph' ? inlines(child.children) : text(plainText(child))),
        ]);
        blocks.push({ type: 'footnote', from, label: node.identifier, content });
        return;
      }
      default:
        blocks.push({ type: 'paragraph', from, content: text(plainText(node)), ...(quote ? { quote } : {}) });
    }
  };
  const walkList = (list: List, depth: number): void => {
    const start = list.start ?? 1;
    list.children.forEach((item, index) => {
      let wroteItem = false;
      const number = list.ordered ? start + index : undefined;
      const open = (content: Inline[]): void => {
        blocks.push({
          type: 'list_item',
          from,
          depth,
          content,
          ...(number !== undefined ? { number } : {}),
          ...(typeof item.checked === 'boolean' ? { checked: item.checked } : {}),
        });
        wroteItem = true;
      };
      for (const child of item.children) {
        if (child.type === 'paragraph' && !wroteItem) open(inlines(child.children));
        else if (child.type === 'list') {
          if (!wroteItem) open([]);
          walkList(child, depth + 1);
        } else walk(child, false);
      }
      if (!wroteItem) open([]);
    });
  };
  for (const node of parseMarkdown(markdown).children) walk(node, false);
  return { version: 1, blocks };
}

function inlines(nodes: PhrasingContent[]): Inline[] {
  const out: Inline[] = [];
  const collect = (node: PhrasingContent, style: Style): void => {
    switch (node.type) {
      case 'text':
        out.push(...text(withoutStrayMarkers(node.value), style));
        return;
      case 'inlineCode':
        out.push(...text(node.value, { ...style, code: true }));
        return;
      case 'break':
        out.push({ kind: 'break' });
        return;
      case 'html':
        if (/^<br\s*\/?>$/i.test(node.value.trim())) out.push({ kind: 'break' });
        return;
      case 'strong':
        for (const child of node.children) collect(child, { ...style, bold: true });
        return;
      case 'emphasis':
        for (const child of node.children) collect(child, { ...style, italic: true });
        return;
      case 'delete':
        for (const child of node.children) collect(child, { ...style, strike: true });
        return;
      case 'link':
        for (const child of node.children) collect(child, { ...style, link: node.url });
        return;
      case 'linkReference':
        for (const child of node.children) collect(child, style);
        return;
      case 'image':
        out.push({ kind: 'image', src: node.url, alt: node.alt ?? '' });
        return;
      case 'footnoteReference':
        out.push({ kind: 'note', label: node.identifier });
        return;
      case 'imageReference':
        out.push(...text(node.alt ?? '', style));
        return;
    }
  };
  for (const node of nodes) collect(node, {});
  return out;
}

function text(value: string, style: Style = {}): Inline[] {
  return value === '' ? [] : [{ kind: 'text', text: value, ...style }];
}
