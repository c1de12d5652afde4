import type { Inline } from '../hancom/model';
import type { XmlNode } from '../office/ooxml';
import { attr, kids, tagName, textOf, walk } from './hwpx-xml';

/* Hyperlink fields: OWPML marks where a link starts and ends among a paragraph's runs. */

/** Where a link field's text starts and ends among the inlines, until `withLinks` gathers it. */
export const LINK_START: Inline = { type: 'text', text: '' };
export const LINK_END: Inline = { type: 'text', text: '' };

/** The inlines with each hyperlink field's text moved inside its link; a field that never ends runs to the paragraph's end. */
export function withLinks(inlines: Inline[]): Inline[] {
  const out: Inline[] = [];
  let open: Extract<Inline, { type: 'link' }> | undefined;
  for (const inline of inlines) {
    if (inline === LINK_END) {
      open = undefined;
    } else if (inline.type === 'link' && inline.inlines[0] === LINK_START) {
      open = { type: 'link', href: inline.href, inlines: [] };
      out.push(open);
    } else if (open && inline.type !== 'table' && inline.type !== 'objects' && inline.type !== 'chart') {
      open.inlines.push(inline);
    } else if (inline.type !== 'text' || inline.text !== '') {
      out.push(inline);
    }
  }
  return out.filter((inline) => inline.type !== 'link' || inline.href !== '' || inline.inlines.length > 0);
}

/** A hyperlink field's address: its Command parameter up to the first unescaped `;`, with `\:` and `\;` unescaped. */
export function hyperlinkTarget(field: XmlNode): string {
  let command = attr(field, 'command') ?? '';
  walk(kids(field), (node) => {
    if (tagName(node) === 'stringParam' && (attr(node, 'name') ?? '').toLowerCase() === 'command')
      command = textOf(node);
    return true;
  });
  const target = /^((?:\\.|[^;\\])*)/.exec(command)?.[1] ?? '';
  return target.replace(/\\(.)/g, '$1');
}
