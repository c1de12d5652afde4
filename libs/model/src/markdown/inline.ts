import { emphasisMarkdown, tildesCouldPair, type InlineRun } from './emphasis';
import { escapeInlineSyntax } from './escape';

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
    const runs = pieces.slice(i, j).map((piece, k) => inlineRun(piece, following(pieces, i + k)));
    const inner = emphasisMarkdown(runs, { tildesPair });
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

/** A piece as an inline run; `following` (the text after it) decides whether its last characters are syntax. */
function inlineRun(piece: Piece, following: string): InlineRun {
  switch (piece.kind) {
    case 'text':
      return {
        kind: 'text',
        text: escapeInlineSyntax(plain(piece), following),
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

/** The start of what the pieces after `index` put on the line: enough to tell an entity or a link from text. */
function following(pieces: Piece[], index: number): string {
  let text = '';
  for (let k = index + 1; k < pieces.length && text.length < 40; k++) text += plain(pieces[k]);
  return text;
}

/** A piece as the text it puts on the line. */
function plain(piece: Piece): string {
  switch (piece.kind) {
    case 'text':
      return piece.text.replace(/[\t\r\n]/g, ' ');
    case 'raw':
      return piece.markdown;
    case 'break':
      return '\n';
  }
}
