import { decodeCharacterReferences } from '@docconv/characters';

/**
 * The one XML reader of the document formats: a strict pull scan of a part that reports start
 * tags, end tags and character data, in order, to a handler. The trees of DOCX (docx/xml-tree)
 * and of the other OOXML parts (office/ooxml) are built on it, and XLSX reads its large sheets
 * with it directly, never holding their tree.
 *
 * It checks that the part is well-formed: tags nest and match, attributes are quoted, there is
 * one root and no text outside it. Document type declarations are refused: Office and OpenDocument
 * files never have them, and their entities are how XML bombs are built. Line ends are read as
 * XML says (CRLF and CR as LF), then character references and the five predefined entities are
 * decoded (`decodeCharacterReferences`: `&#13;` stays a CR); CDATA is passed as written.
 */

/** Raised when a part is not well-formed XML; `message` reads as the end of a sentence. */
export class XmlPartError extends Error {}

/** What a scan reports, in document order. Names are as written, prefix included (`w:p`). */
export interface XmlScanHandler {
  /** A start tag, with its attributes by name as written (namespace declarations included, in order), values decoded. */
  open(name: string, attributes: Record<string, string>, empty: boolean): void;
  /** An end tag, or the end of an empty element (`<a/>` reports `open` then `close`). */
  close(name: string): void;
  /** Character data inside the root element, references decoded; whitespace between tags included. */
  text(text: string): void;
}

const START_TAG = /<([^\s/>!?]+)/y;
const ATTRIBUTE = /\s+([^\s=/>]+)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const SLASH = 0x2f;
const GREATER_THAN = 0x3e;

/** Scans `xml`, the part `partName` of a package, reporting to `handler`; throws XmlPartError when it is not well-formed. */
export function scanXml(xml: string, partName: string, handler: XmlScanHandler): void {
  const source = endOfLineHandled(xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml);
  const fail = (what: string, at: number): XmlPartError =>
    new XmlPartError(`${partName} is not well-formed XML (line ${lineAt(source, at)}: ${what})`);
  const open: string[] = [];
  let rootClosed = false;
  let i = 0;

  while (i < source.length) {
    const lt = source.indexOf('<', i);
    const textEnd = lt < 0 ? source.length : lt;
    if (textEnd > i) {
      const text = source.slice(i, textEnd);
      if (open.length > 0) handler.text(decodeCharacterReferences(text));
      else if (/\S/.test(text)) throw fail('text outside the root element', i);
    }
    if (lt < 0) break;
    i = lt;

    if (source.startsWith('<?', i)) {
      i = skipPast(source, '?>', i, () => fail('unterminated processing instruction', i));
    } else if (source.startsWith('<!--', i)) {
      i = skipPast(source, '-->', i, () => fail('unterminated comment', i));
    } else if (source.startsWith('<![CDATA[', i)) {
      const close = source.indexOf(']]>', i + 9);
      if (close < 0 || open.length === 0) throw fail('misplaced character data section', i);
      handler.text(source.slice(i + 9, close));
      i = close + 3;
    } else if (source.startsWith('<!', i)) {
      throw fail('document type declarations are not allowed', i);
    } else if (source.startsWith('</', i)) {
      const tag = open.pop();
      const end = tag === undefined || !source.startsWith(tag, i + 2) ? -1 : endOfTag(source, i + 2 + tag.length);
      if (tag === undefined || end < 0)
        throw fail(`unexpected end tag ${/^<\/([^\s>]*)/.exec(source.slice(i))![1]}`.trim(), i);
      i = end;
      if (open.length === 0) rootClosed = true;
      handler.close(tag);
    } else {
      if (rootClosed) throw fail('content after the root element', i);
      START_TAG.lastIndex = i;
      const name = START_TAG.exec(source);
      if (!name) throw fail('malformed tag', i);
      let at = START_TAG.lastIndex;
      const attributes: Record<string, string> = {};
      for (;;) {
        ATTRIBUTE.lastIndex = at;
        const attribute = ATTRIBUTE.exec(source);
        if (!attribute) break;
        attributes[attribute[1]] = decodeCharacterReferences(attribute[2] ?? attribute[3] ?? '');
        at = ATTRIBUTE.lastIndex;
      }
      while (at < source.length && isSpace(source.charCodeAt(at))) at++;
      const empty = source.charCodeAt(at) === SLASH;
      if (source.charCodeAt(empty ? at + 1 : at) !== GREATER_THAN) throw fail(`malformed tag ${name[1]}`, i);
      i = at + (empty ? 2 : 1);
      handler.open(name[1], attributes, empty);
      if (!empty) open.push(name[1]);
      else {
        handler.close(name[1]);
        if (open.length === 0) rootClosed = true;
      }
    }
  }
  if (open.length > 0) throw fail(`unclosed element ${open[open.length - 1]}`, source.length);
  if (!rootClosed) throw fail('no root element', 0);
}

/** The text with its line ends as an XML processor reads them (XML 1.0, 2.11): CRLF and a lone CR become LF. */
function endOfLineHandled(xml: string): string {
  return xml.includes('\r') ? xml.replace(/\r\n?/g, '\n') : xml;
}

/** Past the `>` that ends an end tag whose name ends at `from` (spaces may come before it), or -1. */
function endOfTag(source: string, from: number): number {
  let at = from;
  while (at < source.length && isSpace(source.charCodeAt(at))) at++;
  return source.charCodeAt(at) === GREATER_THAN ? at + 1 : -1;
}

/** XML's white space: space, tab, line feed, carriage return. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function skipPast(source: string, terminator: string, from: number, error: () => XmlPartError): number {
  const close = source.indexOf(terminator, from + 2);
  if (close < 0) throw error();
  return close + terminator.length;
}

function lineAt(source: string, offset: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i >= 0 && i < offset; i = source.indexOf('\n', i + 1)) line++;
  return line;
}
