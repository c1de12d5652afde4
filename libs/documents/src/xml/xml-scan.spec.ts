import { scanXml, XmlPartError } from './xml-scan';

/** The events of a scan, one string each. */
function events(xml: string): string[] {
  const out: string[] = [];
  scanXml(xml, 'part.xml', {
    open: (name, attributes, empty) =>
      out.push(
        `<${name}${Object.entries(attributes)
          .map(([key, value]) => ` ${key}=${value}`)
          .join('')}${empty ? '/' : ''}>`,
      ),
    close: (name) => out.push(`</${name}>`),
    text: (text) => out.push(JSON.stringify(text)),
  });
  return out;
}

function failure(xml: string): string {
  try {
    events(xml);
  } catch (error) {
    expect(error).toBeInstanceOf(XmlPartError);
    return (error as Error).message;
  }
  throw new Error('the scan did not fail');
}

describe('scanXml', () => {
  it('reports tags, attributes and text in document order, empty elements opened and closed', () => {
    expect(
      events('<?xml version="1.0"?>\n<w:p xmlns:w="u" a=\'1\'>x<w:r/> <!-- note --><b c = "2">y</b ></w:p>\n'),
    ).toEqual(['<w:p xmlns:w=u a=1>', '"x"', '<w:r/>', '</w:r>', '" "', '<b c=2>', '"y"', '</b>', '</w:p>']);
  });

  it('decodes references in text and attributes, passes character data sections as written', () => {
    expect(events('<a t="&quot;1&quot; &amp; &#x32;">&lt;b&gt; &#65;&nbsp;<![CDATA[<c> &amp;]]></a>')).toEqual([
      '<a t="1" & 2>',
      '"<b> A&nbsp;"',
      '"<c> &amp;"',
      '</a>',
    ]);
  });

  it('reads CRLF and CR line ends as LF, in text, character data and attributes, but keeps a referenced CR', () => {
    expect(events('<a b="1\r\n2">x\r\r\ny&#13;\r<![CDATA[\r\n]]></a>')).toEqual([
      '<a b=1\n2>',
      JSON.stringify('x\n\ny\r\n'),
      JSON.stringify('\n'),
      '</a>',
    ]);
  });

  it('skips a byte order mark before the declaration', () => {
    expect(events('\ufeff<?xml version="1.0"?><a/>')).toEqual(['<a/>', '</a>']);
  });

  it('refuses document type declarations, whatever they declare', () => {
    expect(failure('<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>')).toBe(
      'part.xml is not well-formed XML (line 2: document type declarations are not allowed)',
    );
  });

  it.each([
    ['<a><b></a></b>', 'line 1: unexpected end tag a'],
    ['<a>\n<b>', 'line 2: unclosed element b'],
    ['<a/><b/>', 'line 1: content after the root element'],
    ['text<a/>', 'line 1: text outside the root element'],
    ['<a/>text', 'line 1: text outside the root element'],
    ['<a b=c/>', 'line 1: malformed tag a'],
    ['<a b="<"/>', 'line 1: malformed tag a'],
    ['<a><!-- open</a>', 'line 1: unterminated comment'],
    ['<a><?pi </a>', 'line 1: unterminated processing instruction'],
    ['<![CDATA[x]]><a/>', 'line 1: misplaced character data section'],
    ['<?xml version="1.0"?>', 'line 1: no root element'],
    ['', 'line 1: no root element'],
  ])('refuses %j (%s)', (xml, what) => {
    expect(failure(xml)).toBe(`part.xml is not well-formed XML (${what})`);
  });
});
