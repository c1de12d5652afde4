import { rtfRoughText, rtfStoredPages } from './rtf';

describe('rtfRoughText', () => {
  it('keeps body text and drops tables of fonts, colours, styles and document information', () => {
    const rtf =
      '{\\rtf1\\ansi{\\fonttbl{\\f0\\fswiss Arial;}}{\\colortbl;\\red0\\green0\\blue0;}' +
      '{\\stylesheet{\\s1 heading 1;}}{\\info{\\title Secret title}{\\author Me}}' +
      '\\pard\\b Bold\\b0  text\\par Next{\\*\\bkmkstart x} line\\par}';
    expect(rtfRoughText(rtf).trim()).toBe('Bold text Next line');
  });

  it('decodes hex and Unicode escapes, skipping the fallback characters after \\u', () => {
    expect(rtfRoughText("{\\rtf1 caf\\'e9 \\u8364?\\uc2\\u8212\\'97\\'97 end}")).toBe('café €— end');
  });

  it('skips pictures, embedded object data and field instructions but keeps field results', () => {
    const rtf =
      '{\\rtf1{\\pict\\pngblip 89504e47}{\\object{\\*\\objdata 0102}{\\result shown}}' +
      '{\\field{\\*\\fldinst HYPERLINK "http://x"}{\\fldrslt link}}}';
    expect(rtfRoughText(rtf)).toBe('shownlink');
  });
});

describe('rtfStoredPages', () => {
  it('reads \\nofpages inside \\info only', () => {
    expect(rtfStoredPages('{\\rtf1{\\info{\\author A}\\nofpages12\\nofwords40}x}')).toBe(12);
    expect(rtfStoredPages('{\\rtf1 \\nofpages12 x}')).toBeUndefined();
  });
});
