import { escapeEmphasis } from './emphasis';

/**
 * Literal text written as Markdown that CommonMark 0.31 and GFM read back as the same text.
 *
 * Escaping is minimal: a backslash goes only where the text would otherwise be read as syntax,
 * so ordinary brackets (`Q3 [draft]`), a lone asterisk (`5 * 3`), underscores inside a word
 * (`snake_case`) and ampersands in names (`AT&T`) stay as written. Inline syntax other than
 * emphasis is `escapeInlineSyntax`'s; `*`, `_` and `~` belong to `escapeEmphasis`, which knows
 * the delimiters written around them; `escapeText` is both. What makes a whole line a block
 * (a heading, a list item, a quote…) is `escapeLineStart`'s, and the end of a heading
 * `escapeHeadingText`'s; both take Markdown whose inline text is escaped already.
 */

/** ASCII punctuation: the characters a backslash escapes (CommonMark 0.31, section 2.4). */
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

/** What may follow `<` in raw HTML or an autolink: a tag name, `/`, `!` or `?` (sections 6.5, 6.6). */
const TAG_START = /[A-Za-z/!?]/;

/**
 * An e-mail autolink (section 6.6), sticky, read from `lastIndex`. Not a URI one: there the
 * `\` before `>` would join the address GFM links without brackets (`https://x.org\`).
 */
const EMAIL_AUTOLINK =
  /<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>/y;

/** A named, decimal or hexadecimal character reference (section 2.5). */
const CHARACTER_REFERENCE = /^&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});/;

/** Longest stretch of following text any rule looks at: a character reference's length. */
const LOOKAHEAD = 40;

/**
 * Escapes inline Markdown syntax other than emphasis, leaving `*`, `_` and `~` to
 * `escapeEmphasis` or `emphasisMarkdown`:
 *
 * - `\` before ASCII punctuation, a line break or the end (an escape or a hard break, 2.4, 6.7);
 * - every backtick (a code span, 6.1);
 * - `<` before a letter, `/`, `!` or `?` (raw HTML or an autolink, 6.5, 6.6; at a line's start
 *   also an HTML block, 4.6); when what follows is an e-mail address and `>`
 *   (`<ann@example.com>`), its `>` too, so the address shows between two escaped brackets;
 * - `&` that begins a character reference (`&amp;`, `&#38;`; 2.5);
 * - `[` before `^` (a GFM footnote reference) and `]` before `(` or `[` (an inline, full or
 *   collapsed link or image, 6.3, 6.4; `![img](x)` is then literal too). A bracket pair alone
 *   could only be a shortcut reference, which needs a definition, and `escapeLineStart` keeps
 *   text from writing one.
 *
 * `following` is the text that comes right after, when `text` is one piece of a longer line
 * (a run of a paragraph): what follows decides whether the last characters are syntax.
 */
export function escapeInlineSyntax(text: string, following = ''): string {
  const all = text + following.slice(0, LOOKAHEAD);
  let out = '';
  /** Where the `>` closing an e-mail address whose `<` was escaped stands. */
  let closing = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const next = all[i + 1] ?? '';
    if (i === closing) {
      out += '\\>';
      continue;
    }
    switch (c) {
      case '\\':
        out += next === '' || next === '\n' || ASCII_PUNCTUATION.test(next) ? '\\\\' : '\\';
        break;
      case '`':
        out += '\\`';
        break;
      case '<':
        out += TAG_START.test(next) ? '\\<' : '<';
        EMAIL_AUTOLINK.lastIndex = i;
        closing = EMAIL_AUTOLINK.test(text) ? EMAIL_AUTOLINK.lastIndex - 1 : closing;
        break;
      case '&':
        out += CHARACTER_REFERENCE.test(all.slice(i, i + LOOKAHEAD)) ? '\\&' : '&';
        break;
      case '[':
        out += next === '^' ? '\\[' : '[';
        break;
      case ']':
        out += next === '(' || next === '[' ? '\\]' : ']';
        break;
      default:
        out += c;
    }
  }
  return out;
}

/**
 * Literal text as inline Markdown: `escapeInlineSyntax`, then `escapeEmphasis` for `*`, `_` and
 * `~` (an asterisk stays between spaces, an underscore also inside a word, a single tilde also
 * when no other could pair with it). Text with line breaks is escaped as lines of one paragraph;
 * the block a line could start is `escapeLineStart`'s.
 */
export function escapeText(text: string): string {
  return escapeEmphasis(escapeInlineSyntax(text));
}

/** Spaces before a block marker that still leave it one (four would start indented code, 4.4). */
const INDENT = /^ {0,3}/;

/** A marker that opens a block when the line starts with it. */
const BLOCK_MARKER = new RegExp(
  [
    /#{1,6}(?=[ \t]|$)/.source, // ATX heading (4.2)
    />/.source, // block quote (5.1)
    /[-+*](?=[ \t]|$)/.source, // bullet list item (5.2)
    /\d{1,9}[.)](?=[ \t]|$)/.source, // ordered list item (5.2)
    /\[(?:\\.|[^\\\]])*\]:/.source, // link reference definition (4.7)
  ]
    .map((marker) => `^(?:${marker})`)
    .join('|'),
);

/** A line that is a block all by itself, or turns the line above into one. */
const BLOCK_LINE = new RegExp(
  [
    /([-*_])(?:[ \t]*\1){2,}/.source, // thematic break (4.1)
    /=+|-+/.source, // setext heading underline (4.3)
    /\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?)?|\|[ \t]*:?-+:?/.source, // GFM table delimiter row
  ]
    .map((line) => `^(?:${line})[ \\t]*$`)
    .join('|'),
);

/** An opening code fence (4.5). */
const CODE_FENCE = /^(?:`{3,}|~{3,})/;

/**
 * Escapes what would make a line of a paragraph a block of its own, or end the paragraph above
 * it, when the line is ordinary text:
 *
 * - a heading `#` followed by a space or the end (`# not heading`; `#hashtag` stays), 4.2;
 * - `>` (a block quote), 5.1;
 * - a bullet `-`, `+` or `*` followed by a space or the end, 5.2;
 * - one to nine digits and `.` or `)` followed by a space or the end: `2020\. The year`, `1\)`.
 *   Only a list starting at 1 can interrupt a paragraph, but any number starts one after a blank
 *   line, and a line does not know where it stands, 5.2;
 * - a thematic break (`***`, `- - -`), 4.1, and a setext underline (`===`, `-`), 4.3;
 * - a code fence (every backtick or tilde of it), 4.5;
 * - a link reference definition (`[label]:`), which would vanish and turn `[label]` elsewhere
 *   into a link, 4.7;
 * - a GFM table delimiter row (`|---|`, `-|-`), which makes the line above a table header.
 *
 * `line` is Markdown whose inline text is escaped already (`<` of an HTML block included), and
 * it is not indented by four spaces or more: that would be indented code (4.4), which no escape
 * undoes, so extractors trim their lines.
 */
export function escapeLineStart(line: string): string {
  const indent = INDENT.exec(line)?.[0] ?? '';
  const rest = line.slice(indent.length);
  const fence = CODE_FENCE.exec(rest)?.[0];
  if (fence) return `${indent}${fence.replace(/./g, '\\$&')}${rest.slice(fence.length)}`;
  if (BLOCK_LINE.test(rest)) return `${indent}\\${rest}`;
  if (!BLOCK_MARKER.test(rest)) return line;
  // The backslash goes before the marker's punctuation: after the digits of a list number.
  const number = /^\d*/.exec(rest)?.[0] ?? '';
  return `${indent}${number}\\${rest.slice(number.length)}`;
}

/**
 * Escapes the end of an ATX heading's text that would be read as its optional closing sequence
 * (`#`s after a space, or the whole text: `## Item #` would read "Item", `## #` nothing), 4.2.
 * `text` is the heading's inline Markdown, escaped already.
 */
export function escapeHeadingText(text: string): string {
  return text.replace(/(^|[ \t])(#+)([ \t]*)$/, '$1\\$2$3');
}
