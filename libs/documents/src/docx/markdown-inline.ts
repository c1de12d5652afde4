import { emphasisMarkdown, escapeEmphasis, tildesCouldPair, type InlineRun } from '../markdown/emphasis';

/** A hyperlink; `id` tells two adjacent links to the same address apart. */
export interface Link {
  id: number;
  href: string;
}

/** A piece of paragraph content, in reading order. */
export type Piece =
  | { kind: 'text'; text: string; bold: boolean; italic: boolean; strike: boolean; link?: Link }
  /** Markdown written as is: inline math, a footnote reference, an image placeholder. */
  | { kind: 'raw'; markdown: string; link?: Link }
  /** A line break inside the paragraph. */
  | { kind: 'break'; link?: Link };

/**
 * The Markdown of a paragraph's content: emphasis for bold, italic and struck-through text,
 * links, and only the escapes needed to keep the text literal. Line breaks come out as `\n`;
 * the caller decides how a break is written (a hard break in the body, a space in a table cell).
 */
export function renderInline(pieces: Piece[]): string {
  const tildesPair = tildesCouldPair(pieces.map((p) => (p.kind === 'text' ? p.text : '')));
  let out = '';
  for (let i = 0; i < pieces.length;) {
    const link = pieces[i].link;
    let j = i;
    while (j < pieces.length && pieces[j].link?.id === link?.id) j++;
    const inner = emphasisMarkdown(pieces.slice(i, j).map(inlineRun), { tildesPair });
    if (link && inner.trim() !== '') {
      const lead = /^\s*/.exec(inner)?.[0] ?? '';
      const trail = /\s*$/.exec(inner)?.[0] ?? '';
      out += `${lead}[${inner.trim()}](${link.href})${trail}`;
    } else {
      out += inner;
    }
    i = j;
  }
  return out
    .replace(/[ \t\r]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n+/g, '\n')
    .trim();
}

function inlineRun(piece: Piece): InlineRun {
  switch (piece.kind) {
    case 'text':
      return {
        kind: 'text',
        text: escapeSyntax(piece.text.replace(/[\t\r\n]/g, ' ')),
        bold: piece.bold,
        italic: piece.italic,
        strike: piece.strike,
      };
    case 'raw':
      return { kind: 'raw', markdown: piece.markdown };
    case 'break':
      return { kind: 'break', markdown: '\n' };
  }
}

/**
 * Escapes what would otherwise turn literal text into Markdown syntax, and nothing more:
 * underscores inside words, a lone asterisk between spaces, ordinary brackets stay as they are.
 */
export function escapeMarkdown(text: string): string {
  return escapeEmphasis(escapeSyntax(text));
}

/** Escapes Markdown syntax other than emphasis; `*`, `_` and `~` are left for the emphasis writer. */
function escapeSyntax(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const next = i + 1 < text.length ? text[i + 1] : '';
    switch (c) {
      case '\\':
        out += next === '' || /[!-/:-@[-`{-~]/.test(next) ? '\\\\' : '\\';
        break;
      case '`':
        out += '\\`';
        break;
      case '<':
        out += /[A-Za-z/!?]/.test(next) ? '\\<' : '<';
        break;
      case '&':
        out += /^&#?[A-Za-z0-9]+;/.test(text.slice(i)) ? '\\&' : '&';
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
 * Escapes a line that Markdown would read as a block marker (heading, quote, bullet,
 * thematic break, setext underline, code fence) when it is ordinary text.
 */
export function escapeLineStart(line: string): string {
  if (/^#{1,6}(\s|$)/.test(line) || line.startsWith('>') || /^[-+*](\s|$)/.test(line)) return `\\${line}`;
  if (/^(=+|-+)\s*$/.test(line) || /^([*_-])(\s*\1){2,}\s*$/.test(line)) return `\\${line}`;
  if (/^(~~~|```)/.test(line)) return `\\${line}`;
  return line;
}
