import { scanXml } from '../xml/xml-scan';

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

export { XmlPartError } from '../xml/xml-scan';

interface OpenElement {
  element: XmlElement;
  scope: Map<string, string>;
}

/**
 * Parses one part into its root element (`scanXml` checks that it is well-formed and refuses
 * document type declarations), names qualified by the conventional prefix of their namespace.
 * Whitespace between tags is kept only in the elements whose text it is.
 */
export function parseXml(xml: string, partName: string): XmlElement {
  const stack: OpenElement[] = [];
  let root: XmlElement | undefined;
  scanXml(xml, partName, {
    open(name, rawAttrs) {
      const parent = stack.at(-1);
      const scope = scopeOf(rawAttrs, parent?.scope ?? new Map<string, string>());
      const attrs: Record<string, string> = {};
      for (const [key, value] of Object.entries(rawAttrs)) {
        if (key === 'xmlns' || key.startsWith('xmlns:')) continue;
        attrs[key.includes(':') ? qualify(key, scope, false) : key] = value;
      }
      const element: XmlElement = { name: qualify(name, scope, true), attrs, children: [] };
      if (parent) parent.element.children.push(element);
      else root = element;
      stack.push({ element, scope });
    },
    close() {
      stack.pop();
    },
    text(text) {
      const parent = stack.at(-1)?.element;
      if (parent && (TEXT_ELEMENTS.has(parent.name) || /\S/.test(text))) parent.children.push(text);
    },
  });
  return root!;
}

/** The namespace bindings in force in an element: its parent's, plus its own declarations. */
function scopeOf(rawAttrs: Record<string, string>, parentScope: Map<string, string>): Map<string, string> {
  let scope = parentScope;
  for (const [key, value] of Object.entries(rawAttrs)) {
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
