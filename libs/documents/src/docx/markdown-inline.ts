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

type TextPiece = Extract<Piece, { kind: 'text' }>;
type Marker = '~~' | '**' | '*';

const MARKER_ORDER: Marker[] = ['~~', '**', '*'];
const WORD_CHAR = /[\p{L}\p{N}]/u;
const PUNCTUATION = /[\p{P}\p{S}]/u;

/**
 * The Markdown of a paragraph's content: emphasis for bold, italic and struck-through text,
 * links, and only the escapes needed to keep the text literal. Line breaks come out as `\n`;
 * the caller decides how a break is written (a hard break in the body, a space in a table cell).
 */
export function renderInline(pieces: Piece[]): string {
  const merged = mergeText(pieces);
  let out = '';
  for (let i = 0; i < merged.length;) {
    const link = merged[i].link;
    let j = i;
    while (j < merged.length && merged[j].link?.id === link?.id) j++;
    const inner = emphasize(merged.slice(i, j));
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

/** Adjacent text pieces with the same formatting and link as one, so emphasis is not split needlessly. */
function mergeText(pieces: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (
      piece.kind === 'text' &&
      last?.kind === 'text' &&
      last.bold === piece.bold &&
      last.italic === piece.italic &&
      last.strike === piece.strike &&
      last.link?.id === piece.link?.id
    ) {
      out[out.length - 1] = { ...last, text: last.text + piece.text };
    } else {
      out.push(piece.kind === 'text' ? { ...piece, text: piece.text.replace(/[\t\r\n]/g, ' ') } : piece);
    }
  }
  return out;
}

function markersOf(piece: TextPiece): Marker[] {
  const out: Marker[] = [];
  if (piece.strike) out.push('~~');
  if (piece.bold) out.push('**');
  if (piece.italic) out.push('*');
  return out;
}

/** For how many pieces from `start` a marker stays on (whitespace and raw pieces do not interrupt it). */
function persistence(pieces: Piece[], start: number, marker: Marker): number {
  let n = 0;
  for (let i = start; i < pieces.length; i++) {
    const piece = pieces[i];
    if (piece.kind === 'break') break;
    if (piece.kind === 'raw' || !/\S/.test(piece.text)) continue;
    if (!markersOf(piece).includes(marker)) break;
    n++;
  }
  return n;
}

/**
 * Emphasis delimiters around formatted text. Delimiters never touch whitespace on their inner
 * side, markers that last longer are opened first (outside), and punctuation at the edge of a
 * span is moved outside when CommonMark would otherwise not recognise the delimiter.
 */
function emphasize(pieces: Piece[]): string {
  let out = '';
  const open: Marker[] = [];

  const closeAbove = (keep: number, next: string): void => {
    if (open.length <= keep) return;
    const ws = /\s*$/.exec(out)?.[0] ?? '';
    let body = out.slice(0, out.length - ws.length);
    let moved = '';
    if (ws === '' && WORD_CHAR.test(next.charAt(0))) {
      const punct = /[\p{P}\p{S}]+$/u.exec(body)?.[0] ?? '';
      const before = body.slice(0, body.length - punct.length);
      if (punct !== '' && before !== '' && !/[\s*~]$/.test(before)) {
        moved = punct;
        body = before;
      }
    }
    while (open.length > keep) body += open.pop();
    out = body + moved + ws;
  };

  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (piece.kind === 'break') {
      closeAbove(0, '');
      out += '\n';
      continue;
    }
    if (piece.kind === 'raw') {
      out += piece.markdown;
      continue;
    }
    const text = escapeMarkdown(piece.text);
    if (!/\S/.test(text)) {
      out += text;
      continue;
    }
    const want = markersOf(piece);
    let keep = 0;
    while (keep < open.length && want.includes(open[keep])) keep++;
    closeAbove(keep, text);
    const adding = want
      .filter((m) => !open.includes(m))
      .sort(
        (a, b) =>
          persistence(pieces, i, b) - persistence(pieces, i, a) || MARKER_ORDER.indexOf(a) - MARKER_ORDER.indexOf(b),
      );
    if (adding.length === 0) {
      out += text;
      continue;
    }
    const lead = /^\s*/.exec(text)?.[0] ?? '';
    let rest = text.slice(lead.length);
    out += lead;
    if (WORD_CHAR.test(out.slice(-1)) && PUNCTUATION.test(rest.charAt(0))) {
      const punct = /^[\p{P}\p{S}]+/u.exec(rest)?.[0] ?? '';
      const after = rest.slice(punct.length);
      if (after !== '' && !/^\s/.test(after)) {
        out += punct;
        rest = after;
      }
    }
    for (const marker of adding) {
      out += marker;
      open.push(marker);
    }
    out += rest;
  }
  closeAbove(0, '');
  return out;
}

/**
 * Escapes what would otherwise turn literal text into Markdown syntax, and nothing more:
 * underscores inside words, a lone asterisk between spaces, ordinary brackets stay as they are.
 */
export function escapeMarkdown(text: string): string {
  const manyTildes = text.indexOf('~') !== text.lastIndexOf('~');
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const prev = i > 0 ? text[i - 1] : '';
    const next = i + 1 < text.length ? text[i + 1] : '';
    switch (c) {
      case '\\':
        out += next === '' || /[!-/:-@[-`{-~]/.test(next) ? '\\\\' : '\\';
        break;
      case '*':
        out += /\s/.test(prev) && /\s/.test(next) ? '*' : '\\*';
        break;
      case '_':
        out += WORD_CHAR.test(prev) && WORD_CHAR.test(next) ? '_' : '\\_';
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
      case '~':
        out += manyTildes ? '\\~' : '~';
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

/** A GFM table: the first row is the header, every row has the same number of cells. */
export function renderTable(rows: string[][]): string {
  const width = Math.max(...rows.map((r) => r.length));
  const cell = (text: string | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
  const line = (row: string[]): string =>
    `| ${Array.from({ length: width }, (_, i) => cell(row[i])).join(' | ')} |`.replace(/ {2}\|/g, ' |');
  const [header, ...body] = rows;
  return [line(header), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}
