import { inked, mend, toLine, type Line, type PageLines, type TextRun } from './layout';
import { blockLine, inlines, noteReference, UNPLACED } from './model-blocks';
import { readingOrder, segmentLines } from './reading-order';

/**
 * Footnotes: the notes at the foot of a page, in type smaller than the body, each opened by a
 * marker (a number, a letter or a symbol, raised or set before the note), that a raised marker
 * in the page's text points to. They become footnote blocks where the note stood, and the marker
 * in the text a note reference. A note no marker in the text
 * points to stays text, since a definition without a reference is never shown.
 */

/** Type smaller than this share of the body's is a note's. */
const NOTE_SIZE = 0.92;
/** A marker is raised by at least this share of its line's type, and set this much smaller. */
const RAISED = 0.15;
const SMALLER = 0.85;
/** What a marker can be: a number, one letter, or up to three note symbols. */
const MARKER = /^(?:\d{1,3}|[a-z]|[*∗†‡§¶‖]{1,3})$/;
/** A note opened by a symbol in running text: `* Corresponding author`, `† Deceased`. */
const SYMBOL_OPENING = /^([*∗†‡§¶‖]{1,3})\s*(?=\S)/;

interface Note {
  marker: string;
  lines: Line[];
  /** The note's text without its marker. */
  text: string;
}

/** The pages with their footnotes as references and definition blocks, labelled 1, 2, … through the document. */
export function withFootnotes(pages: PageLines[], bodySize: number): PageLines[] {
  let label = 0;
  return pages.map((original) => {
    if (original.ordered) return original;
    // Split at wide gaps first: a note's line may share a baseline with the next column's text.
    const page = { ...original, lines: segmentLines(original.lines) };
    const notes = notesOf(page, bodySize);
    if (notes.length === 0) return original;
    const area = new Set(notes.flatMap((n) => n.lines));
    const labels = new Map<Note, number>();
    const lines = page.lines.map((line) => {
      if (line.block || area.has(line)) return line;
      const runs = withReferences(line, notes, (note) => {
        if (!labels.has(note)) labels.set(note, ++label);
        return labels.get(note)!;
      });
      return runs ? { ...toLine(runs), paragraph: line.paragraph } : line;
    });
    const referenced = notes.filter((n) => labels.has(n));
    const written = new Set(referenced.flatMap((n) => n.lines));
    return {
      ...page,
      lines: [
        ...lines.filter((line) => !written.has(line)),
        ...referenced.map((note) => definition(note, labels.get(note)!)),
      ],
    };
  });
}

/** A note as a footnote block where its lines stood. */
function definition(note: Note, label: number): Line {
  const first = note.lines[0];
  const last = note.lines[note.lines.length - 1];
  return blockLine(
    {
      ...first,
      x: Math.min(...note.lines.map((l) => l.x)),
      right: Math.max(...note.lines.map((l) => l.right)),
      y: first.y - first.size * 0.8,
      bottom: last.y + last.size * 0.2,
    },
    [{ type: 'footnote', label: String(label), content: inlines(note.text), from: UNPLACED }],
  );
}

/**
 * The notes of a page, at its foot or under a table: its lines in small type, read in order; each
 * note starts at a line opened by a marker and takes the lines just below it, up to the next
 * marker. Other small type (captions, table cells) is not a note.
 */
function notesOf(page: PageLines, bodySize: number): Note[] {
  const text = page.lines.filter((l) => !l.block);
  const foot = text.filter((l) => l.size < bodySize * NOTE_SIZE);
  if (foot.length === 0) return [];
  const ordered = readingOrder({ ...page, lines: foot });
  const notes: Note[] = [];
  const ended = new Set<Note>();
  for (const line of ordered) {
    const opening = markerOf(line);
    if (opening) {
      notes.push({ marker: opening.marker, lines: [line], text: opening.rest });
      continue;
    }
    const note = notes[notes.length - 1];
    if (!note || ended.has(note)) continue;
    const previous = note.lines[note.lines.length - 1];
    const gap = line.y - previous.y;
    // A note goes on in the lines just below it; small type elsewhere is not a note.
    if (gap <= 0 || gap > previous.size * 2 || line.x >= previous.right || line.right <= previous.x) {
      ended.add(note);
      continue;
    }
    note.lines.push(line);
    note.text = mend(note.text, line.text);
  }
  // Ordering may rebuild a line (a raised index put back on its word): the page's own lines are the ones replaced.
  const own = new Set(foot);
  return notes.map((note) => ({
    ...note,
    lines: [...new Set(note.lines.flatMap((l) => (own.has(l) ? [l] : originals(l, foot))))],
  }));
}

/** The page's lines a joined line was made from. */
function originals(joined: Line, lines: Line[]): Line[] {
  const runs = new Set(joined.runs);
  return lines.filter((l) => l.runs.some((r) => runs.has(r)));
}

/** The marker opening a note line and the text after it: a raised or smaller marker, or a note symbol. */
function markerOf(line: Line): { marker: string; rest: string } | undefined {
  const runs = line.runs.filter(inked);
  const first = runs[0];
  if (first && runs.length > 1) {
    const marker = first.text.trim();
    if (MARKER.test(marker) && isRaised(first, line)) {
      const rest = toLine(line.runs.filter((r) => r !== first)).text;
      return rest === '' ? undefined : { marker, rest };
    }
  }
  const symbol = SYMBOL_OPENING.exec(line.text);
  return symbol ? { marker: symbol[1], rest: line.text.slice(symbol[0].length) } : undefined;
}

/** Set above the line's baseline, or in smaller type than the line. */
function isRaised(run: TextRun, line: Line): boolean {
  return run.y < line.y - line.size * RAISED || run.size < line.size * SMALLER;
}

/**
 * The line's runs with each raised marker of a note after a word replaced by a reference to it
 * (`Migchielsen¹,∗` → two references), or undefined when the line has none. Where notes share a
 * marker (two tables with notes a and b), a marker points to the nearest such note below it,
 * in its own column first; a note is never above its marker.
 */
function withReferences(line: Line, notes: Note[], labelOf: (note: Note) => number): TextRun[] | undefined {
  const beside = (note: Note) => note.lines.some((l) => l.x < line.right && line.x < l.right);
  const noteFor = (marker: string): Note | undefined =>
    notes
      .filter((n) => n.marker === marker && n.lines[0].y > line.y)
      .sort((a, b) => Number(beside(b)) - Number(beside(a)) || a.lines[0].y - b.lines[0].y)[0];
  let changed = false;
  const runs = line.runs.map((run, i) => {
    if (i === 0 || !inked(run) || !(run.y < line.y - line.size * RAISED && run.size < line.size * SMALLER)) return run;
    const parts = run.text
      .trim()
      .split(/\s*,\s*/)
      .filter((p) => p !== '');
    const targets = parts.map(noteFor);
    if (parts.length === 0 || targets.some((t) => t === undefined)) return run;
    changed = true;
    const trailing = /\s*$/.exec(run.text)?.[0] ?? '';
    return { ...run, text: targets.map((t) => noteReference(labelOf(t!))).join('') + trailing };
  });
  return changed ? runs : undefined;
}
