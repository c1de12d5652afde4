import { LEADER } from './leaders';
import { FIGURES, inked, toLine, words, type Line, type TextRun } from './layout';

/**
 * A line of an aligned table in pieces: its text split at wide gaps, between the values of a run
 * of figures and at dot leaders, each piece the part of a cell the line holds.
 */

/** Runs further apart than this (ems) are separate cells of a row. */
const CELL_GAP_EM = 0.8;
const LIST_MARKER = /^(?:[•◦▪▫‣∙·●○■□►▶✓✔–—*-]|\(?(?:\d{1,3}|[a-z]|[ivx]{1,4})[.)])$/i;

export interface Piece {
  text: string;
  x0: number;
  x1: number;
  /** The stretch of a rule drawn under the piece's text (see withRulesUnder). */
  under?: [number, number];
}

/**
 * A contents entry (`Title . . . . . 17`) as two pieces, the title and the page number at the
 * right end, without the dot leader between them.
 */
function withoutLeader(piece: Piece, size: number): Piece[] {
  const leader = LEADER.exec(piece.text);
  if (!leader) return [{ ...piece, text: piece.text.replace(/(?:\s*\.){4,}\s*$/, '').trim() || piece.text }];
  const [, title, page] = leader;
  const glyph = size * 0.5; // an average glyph's width, for where the two parts end and start
  const pageX0 = Math.max(piece.x0, piece.x1 - page.length * glyph * 1.2);
  // The leader lies between them: the title ends well before the page number starts.
  return [
    { text: title.trim(), x0: piece.x0, x1: Math.min(piece.x0 + title.length * glyph, pageX0 - size * 1.5) },
    { text: page, x0: pageX0, x1: piece.x1 },
  ];
}

/**
 * The line's text in pieces, split where runs are more than CELL_GAP_EM apart, between the values
 * of a run of figures, and at dot leaders.
 */
export function piecesOf(line: Line): Piece[] {
  // A run of figures alone, each with a digit (a row of values a producer wrote as one string),
  // is one value a piece; a dot leader ending in a page number is not such a run.
  const values = new Set<TextRun>();
  const runs = line.runs
    .filter(inked)
    .flatMap((run) => {
      const tokens = run.text.trim().split(/\s+/);
      if (tokens.length < 2 || !tokens.every((token) => FIGURES.test(token))) return [run];
      const split = words(run);
      for (const value of split) values.add(value);
      return split;
    })
    .sort((a, b) => a.x - b.x);
  if (runs.length === 0) return [];
  const groups: TextRun[][] = [[runs[0]]];
  for (let i = 1; i < runs.length; i++) {
    const previous = runs[i - 1];
    const apart = runs[i].x - (previous.x + previous.width) > line.size * CELL_GAP_EM;
    if (apart || (values.has(runs[i]) && values.has(previous))) groups.push([runs[i]]);
    else groups[groups.length - 1].push(runs[i]);
  }
  const pieces = groups.flatMap((group) => {
    const piece = toLine(group);
    const under = group.find((run) => run.ruledUnder)?.ruledUnder;
    return withoutLeader({ text: piece.text, x0: piece.x, x1: piece.right, ...(under ? { under } : {}) }, line.size);
  });
  // A list item's marker, set off from its text, is not a cell of its own.
  if (pieces.length >= 2 && LIST_MARKER.test(pieces[0].text)) {
    pieces.splice(0, 2, { text: `${pieces[0].text} ${pieces[1].text}`, x0: pieces[0].x0, x1: pieces[1].x1 });
  }
  return pieces;
}
