import { decodeCharacterReferences } from '@docconv/characters';

/**
 * An element of an Office Open XML part. Its name, and the names of its attributes, carry the
 * conventional prefix of their namespace (`w:`, `m:`, `r:`, `a:`, …) whatever prefix the file
 * itself declared, so `w:p` means a WordprocessingML paragraph in every document.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}

/** An element or a run of character data. */
export type XmlNode = XmlElement | string;

/** The conventional prefix of each namespace Word documents use (transitional and strict URIs). */
const PREFIXES: Record<string, string> = {
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main': 'w',
  'http://purl.oclc.org/ooxml/wordprocessingml/main': 'w',
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships': 'r',
  'http://purl.oclc.org/ooxml/officeDocument/relationships': 'r',
  'http://schemas.openxmlformats.org/officeDocument/2006/math': 'm',
  'http://purl.oclc.org/ooxml/officeDocument/math': 'm',
  'http://schemas.openxmlformats.org/markup-compatibility/2006': 'mc',
  'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing': 'wp',
  'http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing': 'wp',
  'http://schemas.openxmlformats.org/drawingml/2006/main': 'a',
  'http://purl.oclc.org/ooxml/drawingml/main': 'a',
  'http://schemas.openxmlformats.org/drawingml/2006/picture': 'pic',
  'http://purl.oclc.org/ooxml/drawingml/picture': 'pic',
  'http://schemas.microsoft.com/office/word/2010/wordprocessingShape': 'wps',
  'http://schemas.microsoft.com/office/word/2010/wordprocessingGroup': 'wpg',
  'urn:schemas-microsoft-com:vml': 'v',
  'urn:schemas-microsoft-com:office:office': 'o',
  'http://schemas.openxmlformats.org/package/2006/relationships': 'pr',
};

/** Elements whose whitespace-only text is content (`<w:t xml:space="preserve"> </w:t>`). */
const TEXT_ELEMENTS = new Set(['w:t', 'm:t', 'w:instrText', 'w:delText', 'a:t']);

const START_TAG = /<([^\s/>!?]+)/y;
const ATTRIBUTE = /\s+([^\s=/>]+)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const TAG_CLOSE = /\s*(\/?)>/y;
const END_TAG = /<\/([^\s>]+)\s*>/y;

/** Raised when a part is not well-formed XML; `message` reads as the end of a sentence. */
export class XmlPartError extends Error {}

interface OpenElement {
  element: XmlElement;
  tag: string;
  scope: Map<string, string>;
}

/**
 * Parses one part into its root element, checking that it is well-formed: tags nest and
 * match, attributes are quoted, there is one root. Document type declarations are refused:
 * Word never writes them, and their entities are how XML bombs are built.
 */
export function parseXml(xml: string, partName: string): XmlElement {
  const source = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  const fail = (what: string, at: number): XmlPartError =>
    new XmlPartError(`${partName} is not well-formed XML (line ${lineAt(source, at)}: ${what})`);
  const stack: OpenElement[] = [];
  let root: XmlElement | undefined;
  let i = 0;

  while (i < source.length) {
    const lt = source.indexOf('<', i);
    const textEnd = lt < 0 ? source.length : lt;
    if (textEnd > i) {
      const text = source.slice(i, textEnd);
      const parent = stack.at(-1)?.element;
      if (parent) {
        if (TEXT_ELEMENTS.has(parent.name) || /\S/.test(text)) parent.children.push(decodeCharacterReferences(text));
      } else if (/\S/.test(text)) {
        throw fail('text outside the root element', i);
      }
    }
    if (lt < 0) break;
    i = lt;

    if (source.startsWith('<?', i)) {
      i = skipPast(source, '?>', i, () => fail('unterminated processing instruction', i));
    } else if (source.startsWith('<!--', i)) {
      i = skipPast(source, '-->', i, () => fail('unterminated comment', i));
    } else if (source.startsWith('<![CDATA[', i)) {
      const close = source.indexOf(']]>', i + 9);
      const parent = stack.at(-1)?.element;
      if (close < 0 || !parent) throw fail('misplaced character data section', i);
      parent.children.push(source.slice(i + 9, close));
      i = close + 3;
    } else if (source.startsWith('<!', i)) {
      throw fail('document type declarations are not allowed', i);
    } else if (source.startsWith('</', i)) {
      END_TAG.lastIndex = i;
      const match = END_TAG.exec(source);
      const open = stack.pop();
      if (!match || !open || open.tag !== match[1]) throw fail(`unexpected end tag ${match?.[1] ?? ''}`.trim(), i);
      i = END_TAG.lastIndex;
      if (stack.length === 0) root = open.element;
    } else {
      if (root) throw fail('content after the root element', i);
      START_TAG.lastIndex = i;
      const name = START_TAG.exec(source);
      if (!name) throw fail('malformed tag', i);
      let at = START_TAG.lastIndex;
      const rawAttrs: [string, string][] = [];
      for (;;) {
        ATTRIBUTE.lastIndex = at;
        const attribute = ATTRIBUTE.exec(source);
        if (!attribute) break;
        rawAttrs.push([attribute[1], attribute[2] ?? attribute[3] ?? '']);
        at = ATTRIBUTE.lastIndex;
      }
      TAG_CLOSE.lastIndex = at;
      const close = TAG_CLOSE.exec(source);
      if (!close) throw fail(`malformed tag ${name[1]}`, i);
      i = TAG_CLOSE.lastIndex;

      const parent = stack.at(-1);
      const scope = scopeOf(rawAttrs, parent?.scope ?? new Map<string, string>());
      const attrs: Record<string, string> = {};
      for (const [key, value] of rawAttrs) {
        if (key === 'xmlns' || key.startsWith('xmlns:')) continue;
        attrs[key.includes(':') ? qualify(key, scope, false) : key] = decodeCharacterReferences(value);
      }
      const element: XmlElement = { name: qualify(name[1], scope, true), attrs, children: [] };
      parent?.element.children.push(element);
      if (close[1] === '/') {
        if (!parent) root = element;
      } else {
        stack.push({ element, tag: name[1], scope });
      }
    }
  }
  if (stack.length > 0) throw fail(`unclosed element ${stack[stack.length - 1].tag}`, source.length);
  if (!root) throw fail('no root element', 0);
  return root;
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

/** The namespace bindings in force in an element: its parent's, plus its own declarations. */
function scopeOf(rawAttrs: [string, string][], parentScope: Map<string, string>): Map<string, string> {
  let scope = parentScope;
  for (const [key, value] of rawAttrs) {
    if (key !== 'xmlns' && !key.startsWith('xmlns:')) continue;
    if (scope === parentScope) scope = new Map(parentScope);
    scope.set(key === 'xmlns' ? '' : key.slice(6), value);
  }
  return scope;
}

/** `prefix:local` with the conventional prefix of the namespace the declared prefix is bound to. */
function qualify(name: string, scope: Map<string, string>, isElement: boolean): string {
  const colon = name.indexOf(':');
  const prefix = colon < 0 ? '' : name.slice(0, colon);
  const local = colon < 0 ? name : name.slice(colon + 1);
  if (prefix === 'xml') return name;
  if (prefix === '' && !isElement) return local;
  const uri = scope.get(prefix);
  const known = uri === undefined ? undefined : PREFIXES[uri];
  if (known !== undefined) return `${known}:${local}`;
  return name;
}

export function isElement(node: XmlNode): node is XmlElement {
  return typeof node !== 'string';
}

/** The element children, optionally only those with the given name. */
export function elements(parent: XmlElement | undefined, name?: string): XmlElement[] {
  if (!parent) return [];
  const out: XmlElement[] = [];
  for (const node of parent.children) if (isElement(node) && (name === undefined || node.name === name)) out.push(node);
  return out;
}

/** The first child element with this name. */
export function child(parent: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!parent) return undefined;
  for (const node of parent.children) if (isElement(node) && node.name === name) return node;
  return undefined;
}

/** The first descendant with this name, depth first, in document order. */
export function descendant(parent: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!parent) return undefined;
  for (const node of parent.children) {
    if (!isElement(node)) continue;
    if (node.name === name) return node;
    const found = descendant(node, name);
    if (found) return found;
  }
  return undefined;
}

/** An attribute by qualified name (`w:val`), or by its local name when the file left it unqualified. */
export function attr(element: XmlElement | undefined, name: string): string | undefined {
  if (!element) return undefined;
  const value = element.attrs[name];
  if (value !== undefined) return value;
  const colon = name.indexOf(':');
  return colon < 0 ? undefined : element.attrs[name.slice(colon + 1)];
}

/** `w:val` of the named child, e.g. `val(pPr, 'w:pStyle')`. */
export function val(parent: XmlElement | undefined, name: string): string | undefined {
  return attr(child(parent, name), 'w:val');
}

/** The character data directly inside an element. */
export function textOf(element: XmlElement | undefined): string {
  if (!element) return '';
  let text = '';
  for (const node of element.children) if (typeof node === 'string') text += node;
  return text;
}

/**
 * An on/off property such as `<w:b/>`, `<w:b w:val="0"/>`: undefined when absent, otherwise
 * whether it is switched on.
 */
export function onOff(parent: XmlElement | undefined, name: string): boolean | undefined {
  const element = child(parent, name);
  if (!element) return undefined;
  const value = attr(element, 'w:val');
  return value === undefined || !['0', 'false', 'off', 'none'].includes(value.toLowerCase());
}

/** An integer attribute value, or undefined when absent or not a number. */
export function intVal(parent: XmlElement | undefined, name: string): number | undefined {
  const value = val(parent, name);
  if (value === undefined) return undefined;
  const n = parseInt(value, 10);
  return Number.isFinite(n) ? n : undefined;
}
