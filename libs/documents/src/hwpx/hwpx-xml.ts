import type { XmlNode } from '../office/ooxml';

/* Reading the OWPML element tree: names, attributes, text and the sub-lists that hold paragraphs. */

/** An element's local name, or '' for character data. */
export function tagName(node: XmlNode): string {
  return node.name === '#text' ? '' : node.name;
}

export function kids(node: XmlNode): XmlNode[] {
  return node.children;
}

export function attr(node: XmlNode, name: string): string | undefined {
  return node.attrs[name];
}

/** All text below a node, in order. */
export function textOf(node: XmlNode): string {
  if (node.name === '#text') return node.text;
  return node.children.map(textOf).join('');
}

/** The paragraphs of the nearest sub-lists below a node (a cell, note, text box or caption); a caption's are not a text box's. */
export function subListParagraphs(node: XmlNode): XmlNode[] {
  const found: XmlNode[] = [];
  walk(kids(node), (child) => {
    const tag = tagName(child);
    if (tag === 'caption') return false;
    if (tag === 'subList') {
      found.push(...kids(child).filter((k) => tagName(k) === 'p'));
      return false;
    }
    return true;
  });
  return found;
}

/** Visits nodes depth first; `visit` returns whether to go into the node's children. */
export function walk(nodes: XmlNode[], visit: (node: XmlNode) => boolean): void {
  const stack = [...nodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (visit(node)) stack.push(...[...kids(node)].reverse());
  }
}

export function whole(value: string | undefined, fallback: number): number {
  const n = value === undefined ? NaN : Number(value);
  return Number.isInteger(n) && n >= 0 && n < 100_000 ? n : fallback;
}
