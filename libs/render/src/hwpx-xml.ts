/**
 * XML writing for the HWPX (OWPML) parts: every attribute value and text node goes through
 * `escapeXml`, so no other part of the writer escapes anything itself.
 */

/** Attribute values of one element, written in the order given. */
export type Attributes = Readonly<Record<string, string | number>>;

/**
 * The namespaces Hancom Office declares on every OWPML part's root, declared the same way on ours
 * so that readers which look prefixes up by their usual URIs find them.
 */
export const OWPML_NAMESPACES: Attributes = {
  'xmlns:ha': 'http://www.hancom.co.kr/hwpml/2011/app',
  'xmlns:hp': 'http://www.hancom.co.kr/hwpml/2011/paragraph',
  'xmlns:hp10': 'http://www.hancom.co.kr/hwpml/2016/paragraph',
  'xmlns:hs': 'http://www.hancom.co.kr/hwpml/2011/section',
  'xmlns:hc': 'http://www.hancom.co.kr/hwpml/2011/core',
  'xmlns:hh': 'http://www.hancom.co.kr/hwpml/2011/head',
  'xmlns:hhs': 'http://www.hancom.co.kr/hwpml/2011/history',
  'xmlns:hm': 'http://www.hancom.co.kr/hwpml/2011/master-page',
  'xmlns:hpf': 'http://www.hancom.co.kr/schema/2011/hpf',
  'xmlns:dc': 'http://purl.org/dc/elements/1.1/',
  'xmlns:opf': 'http://www.idpf.org/2007/opf/',
  'xmlns:ooxmlchart': 'http://www.hancom.co.kr/hwpml/2016/ooxmlchart',
  'xmlns:hwpunitchar': 'http://www.hancom.co.kr/hwpml/2016/HwpUnitChar',
  'xmlns:epub': 'http://www.idpf.org/2007/ops',
  'xmlns:config': 'urn:oasis:names:tc:opendocument:xmlns:config:1.0',
};

/** The OWPML version the parts follow, as Hancom Office 2020 and later write it. */
export const OWPML_VERSION = '1.4';

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text made safe for an XML text node or a double-quoted attribute value. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

/**
 * One element: its attributes escaped, its children (already XML, built by `element` or
 * `textNode`) written inside; an element without children is written empty (`<x/>`).
 */
export function element(name: string, attributes: Attributes = {}, ...children: string[]): string {
  const attributeText = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
    .join('');
  const inner = children.join('');
  return inner === '' ? `<${name}${attributeText}/>` : `<${name}${attributeText}>${inner}</${name}>`;
}

/** Text as a text node between elements. */
export function textNode(text: string): string {
  return escapeXml(text);
}

/** A whole XML part: the declaration Hancom writes, then the root element. */
export function xmlPart(root: string): string {
  return XML_DECLARATION + root;
}
