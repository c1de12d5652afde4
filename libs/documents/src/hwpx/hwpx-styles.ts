import type { DecompressionBudget } from '../decompression';
import { numberFormat, type Numbering } from '../hancom/numbering';
import type { CharShape } from '../hancom/styles';
import { parseXml, type XmlNode } from '../office/ooxml';
import { withZip } from '../zip/zip-reader';
import { attr, kids, tagName, textOf, walk, whole } from './hwpx-xml';

/*
 * The style book of an HWPX package (`Contents/header.xml`): character shapes (emphasis),
 * paragraph shapes (outline, number or bullet, and level), styles, numberings and bullets.
 */

const MAX_HEADER_BYTES = 32 * 1024 * 1024;

export interface StyleBook {
  encrypted: boolean;
  /** Paragraph shape id → its heading kind (OUTLINE, BULLET, NUMBER, NONE), level (from 0) and numbering or bullet id. */
  paraShapes: Map<string, { type: string; level: number; ref: string }>;
  /** Style id → its Korean and English names. */
  styles: Map<string, string[]>;
  /** Bullet id → the character drawn. */
  bullets: Map<string, string>;
  numberings: Map<string, Numbering>;
  charShapes: Map<string, CharShape>;
}

export async function readStyleBook(path: string, budget: DecompressionBudget): Promise<StyleBook> {
  const book: StyleBook = {
    encrypted: false,
    paraShapes: new Map(),
    styles: new Map(),
    bullets: new Map(),
    numberings: new Map(),
    charShapes: new Map(),
  };
  let header: string | undefined;
  try {
    await withZip(
      path,
      async (zip) => {
        header = await zip.readText('Contents/header.xml', MAX_HEADER_BYTES);
        const manifest = await zip.readText('META-INF/manifest.xml', MAX_HEADER_BYTES);
        book.encrypted = manifest !== undefined && /encryption-data/i.test(manifest);
      },
      budget,
    );
  } catch {
    return book; // the document reads without styles: no headings, numbers or emphasis
  }
  let tree: XmlNode;
  try {
    if (header === undefined) return book;
    tree = parseXml(header, 'Contents/header.xml');
  } catch {
    return book; // not well-formed: read without styles too
  }
  walk(tree.children, (node) => {
    const id = attr(node, 'id');
    switch (tagName(node)) {
      case 'paraPr': {
        const heading = kids(node).find((k) => tagName(k) === 'heading');
        if (heading && id !== undefined) {
          book.paraShapes.set(id, {
            type: attr(heading, 'type') ?? 'NONE',
            level: whole(attr(heading, 'level'), 0),
            ref: attr(heading, 'idRef') ?? '0',
          });
        }
        return false;
      }
      case 'charPr': {
        if (id === undefined) return false;
        const parts = new Map(kids(node).map((k) => [tagName(k), k]));
        const strike = parts.get('strikeout');
        book.charShapes.set(id, {
          bold: parts.has('bold'),
          italic: parts.has('italic'),
          strike: strike !== undefined && !['NONE', ''].includes(attr(strike, 'shape') ?? 'NONE'),
          superscript: parts.has('supscript'),
          subscript: parts.has('subscript'),
        });
        return false;
      }
      case 'style':
        if (id !== undefined) book.styles.set(id, [attr(node, 'name') ?? '', attr(node, 'engName') ?? '']);
        return false;
      case 'bullet':
        if (id !== undefined) book.bullets.set(id, attr(node, 'char') ?? '');
        return false;
      case 'numbering': {
        if (id === undefined) return false;
        const levels = kids(node)
          .filter((k) => tagName(k) === 'paraHead')
          .sort((a, b) => whole(attr(a, 'level'), 0) - whole(attr(b, 'level'), 0))
          .map((head) => ({
            pattern: textOf(head),
            format: numberFormat(attr(head, 'numFormat') ?? 'DIGIT'),
            start: whole(attr(head, 'start'), 1),
          }));
        book.numberings.set(id, { levels });
        return false;
      }
      default:
        return true;
    }
  });
  return book;
}
