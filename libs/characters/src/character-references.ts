/**
 * Character references (`&amp;`, `&#38;`, `&#x26;`): the one decoder every reader of XML or
 * HTML text uses. Names are data: XML's five, or HTML's common ones; a reader picks its table.
 */

/** The five entities XML predefines; XML declares no others (document type declarations are refused). */
export const XML_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

/**
 * XML's five and the named references documents commonly carry in HTML, with the upper-case
 * spellings HTML also defines. Names are case-sensitive, as HTML defines them (`&Eacute;` is not `&eacute;`).
 */
export const HTML_ENTITIES: Readonly<Record<string, string>> = {
  ...XML_ENTITIES,
  AMP: '&',
  LT: '<',
  GT: '>',
  QUOT: '"',
  COPY: '\u00a9',
  REG: '\u00ae',
  TRADE: '\u2122',
  nbsp: '\u00a0',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
  middot: '\u00b7',
  times: '\u00d7',
  divide: '\u00f7',
  deg: '\u00b0',
  plusmn: '\u00b1',
  le: '\u2264',
  ge: '\u2265',
  ne: '\u2260',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  euro: '\u20ac',
  pound: '\u00a3',
  yen: '\u00a5',
  cent: '\u00a2',
  laquo: '\u00ab',
  raquo: '\u00bb',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  bull: '\u2022',
};

const REFERENCE = /&(#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g;

/** The character a numeric reference's code point stands for, or undefined if no character has it. */
function codePointCharacter(code: number): string | undefined {
  if (!Number.isSafeInteger(code) || code <= 0 || code > 0x10ffff) return undefined;
  if (code >= 0xd800 && code <= 0xdfff) return undefined; // a lone surrogate is no character
  return String.fromCodePoint(code);
}

/**
 * `text` with its character references decoded: numeric ones (decimal, `#x` or `#X` hex) to the
 * character they name, named ones through `names`. A reference that names nothing (an unknown
 * name, code point 0, a surrogate, beyond U+10FFFF) stays as written, so no text is lost.
 */
export function decodeCharacterReferences(
  text: string,
  names: Readonly<Record<string, string>> = XML_ENTITIES,
): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (whole, body: string) => {
    if (body[0] !== '#') return Object.hasOwn(names, body) ? names[body] : whole;
    const hex = body[1] === 'x' || body[1] === 'X';
    return codePointCharacter(hex ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)) ?? whole;
  });
}
