/**
 * The one rule for characters no output of ours carries: every reader applies it to the text it
 * extracts, and every writer of Markdown or of an XML-based office file to what it writes.
 */

/**
 * Characters dropped: C0 controls other than tab, line feed and carriage return (XML 1.0
 * forbids them; vertical tab and form feed included: a reader that treats them as line breaks
 * turns them into line feeds first); DEL and the C1 controls (no reader shows them; they are
 * mojibake of a wrong decoding more often than text); U+FEFF (a byte order mark or the
 * deprecated zero-width no-break space, invisible either way); the noncharacters U+FFFE and U+FFFF.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const DROPPED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFEFF\uFFFE\uFFFF]/g;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` without the dropped characters, and with each unpaired surrogate (half of a character,
 * which UTF-8 cannot encode and XML cannot carry) replaced by U+FFFD, the sign of a character lost.
 * The result is valid XML 1.0 character data and encodes to UTF-8 as it reads. `replacement`
 * stands in for each dropped character where it separated words (a one-line header field).
 */
export function withoutDroppedCharacters(text: string, replacement = ''): string {
  return text.replace(DROPPED, replacement).replace(LONE_SURROGATE, '\uFFFD');
}
