import { decodeCharacterReferences, HTML_ENTITIES, XML_ENTITIES } from './character-references';

describe('decodeCharacterReferences', () => {
  it('decodes the five XML entities and leaves other names as written', () => {
    expect(decodeCharacterReferences('&lt;a href=&quot;x&quot;&gt; &amp;amp; &apos;')).toBe('<a href="x"> &amp; \'');
    expect(decodeCharacterReferences('&nbsp;&copy;&unknown;')).toBe('&nbsp;&copy;&unknown;');
  });

  it('decodes decimal and hexadecimal references, astral ones included', () => {
    expect(decodeCharacterReferences('&#65;&#x42;&#X43;&#xac00;&#128512;&#x1F600;')).toBe('ABC가😀😀');
    expect(decodeCharacterReferences('&#0000065;')).toBe('A');
  });

  it('leaves references that name no character as written', () => {
    const invalid = ['&#0;', '&#x0;', '&#xD800;', '&#57343;', '&#x110000;', '&#99999999999999999999;', '&#x;', '&#;'];
    for (const reference of invalid) expect(decodeCharacterReferences(reference)).toBe(reference);
  });

  it('leaves unterminated references and bare ampersands alone', () => {
    expect(decodeCharacterReferences('AT&T &amp &#65 & ;')).toBe('AT&T &amp &#65 & ;');
  });

  it('reads names case-sensitively, through the table given', () => {
    expect(decodeCharacterReferences('&AMP;&Amp;')).toBe('&AMP;&Amp;');
    expect(decodeCharacterReferences('&AMP;&Amp;&nbsp;&mdash;&Eacute;', HTML_ENTITIES)).toBe(
      '&&Amp;\u00a0\u2014&Eacute;',
    );
    expect(decodeCharacterReferences('&constructor;&toString;', XML_ENTITIES)).toBe('&constructor;&toString;');
  });

  it('decodes once: a decoded ampersand does not start another reference', () => {
    expect(decodeCharacterReferences('&amp;lt; &#38;#65;')).toBe('&lt; &#65;');
  });
});
