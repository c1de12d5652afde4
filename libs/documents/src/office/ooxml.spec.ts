import { OfficeReadError, parseXml, textContent, type XmlNode } from './ooxml';

/** A tree as nested arrays: `[name, attrs, ...children]`, character data as strings. */
function shape(node: XmlNode): unknown {
  return node.name === '#text' ? node.text : [node.name, node.attrs, ...node.children.map(shape)];
}

describe('parseXml', () => {
  it('names elements without their prefix, keeps attributes under their qualified names, decoded', () => {
    const root = parseXml('<p:sld xmlns:p="u" xmlns:r="v"><p:pic r:embed="rId&#49;"/></p:sld>', 'slide.xml');
    expect(shape(root)).toEqual([
      '#document',
      {},
      ['sld', { 'xmlns:p': 'u', 'xmlns:r': 'v' }, ['pic', { 'r:embed': 'rId1' }]],
    ]);
  });

  it('keeps whitespace between tags and joins adjacent character data into one node', () => {
    const root = parseXml('<a:p xmlns:a="u">\n <a:t> x &amp; </a:t>y<!-- c -->z<![CDATA[<w>]]></a:p>', 'p.xml');
    expect(shape(root.children[0])).toEqual(['p', { 'xmlns:a': 'u' }, '\n ', ['t', {}, ' x & '], 'yz<w>']);
    expect(textContent(root)).toBe('\n  x & yz<w>');
  });

  it('fails with an OfficeReadError naming the part when it is not well-formed', () => {
    const malformed = () => parseXml('<a><b></a>', 'ppt/slides/slide1.xml');
    expect(malformed).toThrow(OfficeReadError);
    expect(malformed).toThrow('ppt/slides/slide1.xml is not well-formed XML (line 1: unexpected end tag a)');
    expect(() => parseXml('<!DOCTYPE a><a/>', 'x.xml')).toThrow(OfficeReadError);
  });
});
