import { attr, child, elements, type XmlElement } from './xml-tree';
import type { DocxPart } from './docx-package';

/** Word's markup around content: where the notes are, which alternative shows, what wraps rows and cells. */

/** The notes of a footnotes or endnotes part by id, without the separators Word keeps among them. */
export function notesById(part: DocxPart | undefined, name: string): Map<string, XmlElement> {
  const out = new Map<string, XmlElement>();
  for (const note of elements(part?.root, name)) {
    const id = attr(note, 'w:id');
    const type = attr(note, 'w:type');
    if (id !== undefined && (type === undefined || type === 'normal')) out.set(id, note);
  }
  return out;
}

/** The content Word shows for markup-compatibility alternatives: the preferred choice, else the fallback. */
export function alternative(element: XmlElement): XmlElement | undefined {
  return child(element, 'mc:Choice') ?? child(element, 'mc:Fallback');
}

/** Rows of a table or cells of a row, including those wrapped in content controls or custom XML. */
export function nested(parent: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const node of elements(parent)) {
    if (node.name === name) out.push(node);
    else if (node.name === 'w:sdt') out.push(...nested(child(node, 'w:sdtContent') ?? node, name));
    else if (node.name === 'w:customXml') out.push(...nested(node, name));
  }
  return out;
}

/**
 * A picture's alternative text as a reader wants it: without the note Word's automatic
 * description appends, on one line, at most 200 characters.
 */
export function pictureAlt(description: string | undefined): string {
  return (description ?? '')
    .replace(/\s*(Description automatically generated|AI-generated content may be incorrect)[\s\S]*$/i, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}
