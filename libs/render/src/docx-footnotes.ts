import type { Document, Inline } from '@docconv/model';
import { blockRuns, type Block } from './document-blocks';
import type { InlineRun } from './markdown-tree';

/** A footnote's content: one list of runs per paragraph. */
export type NoteBody = InlineRun[][];

/** A piece of run text: plain text, or a reference to a footnote (by its Word id) where `[^id]` stood. */
export type NotePiece = { text: string } | { note: number; first: boolean };

/** `[^id]` as the block text writes a footnote reference. */
const REFERENCE = /\[\^([^\]\s]+)\]/g;
/** A footnote definition as the block text writes it: `[^id]: text`. */
const DEFINITION = /^\[\^([^\]\s]+)\]: /;

/**
 * The document's footnotes: every footnote block that some note reference points to becomes a Word footnote,
 * numbered in the order the references come. A footnote nothing refers to stays a paragraph, and a reference
 * with no footnote stays its text `[^label]`.
 */
export class DocxFootnotes {
  private readonly bodies = new Map<string, NoteBody>();
  private readonly ids = new Map<string, number>();

  constructor(document: Document) {
    const referenced = new Set<string>();
    for (const block of document.blocks) for (const label of noteLabels(block)) referenced.add(label);
    for (const block of document.blocks) {
      if (block.type === 'footnote' && referenced.has(block.label) && !this.bodies.has(block.label))
        this.bodies.set(block.label, [blockRuns(block.content)]);
    }
  }

  /** Whether the block is the paragraph a footnote definition became, which the footnote replaces. */
  isDefinition(block: Block): boolean {
    if (block.kind !== 'paragraph') return false;
    const id = DEFINITION.exec(block.text)?.[1];
    return id !== undefined && this.bodies.has(id);
  }

  /**
   * The text with each reference to a known footnote taken out as a note piece; `first` is set for the first
   * reference to a note, which Word numbers, while later ones repeat its number.
   */
  pieces(text: string): NotePiece[] {
    const pieces: NotePiece[] = [];
    let last = 0;
    for (const match of text.matchAll(REFERENCE)) {
      if (!this.bodies.has(match[1])) continue;
      if (match.index > last) pieces.push({ text: text.slice(last, match.index) });
      const known = this.ids.get(match[1]);
      const note = known ?? this.ids.size + 1;
      this.ids.set(match[1], note);
      pieces.push({ note, first: known === undefined });
      last = match.index + match[0].length;
    }
    if (last < text.length || pieces.length === 0) pieces.push({ text: text.slice(last) });
    return pieces;
  }

  /** The footnotes referred to so far, by Word id. */
  referenced(): [number, NoteBody][] {
    return [...this.ids].map(([identifier, note]) => [note, this.bodies.get(identifier) ?? []]);
  }
}

/**
 * The labels of the notes a block refers to, in its text, its table cells and its caption: note references,
 * and `[^label]` written in text (as Markdown read into the model carries them).
 */
function noteLabels(block: Document['blocks'][number]): string[] {
  if (block.type === 'footnote') return [];
  const contents: (readonly Inline[])[] = [];
  if ('content' in block) contents.push(block.content);
  if ('caption' in block && block.caption) contents.push(block.caption);
  if (block.type === 'table') for (const row of block.rows) for (const cell of row) contents.push(cell.content);
  return contents.flatMap((content) =>
    content.flatMap((inline) => {
      if (inline.kind === 'note') return [inline.label];
      if (inline.kind !== 'text' || inline.code) return [];
      return [...inline.text.matchAll(REFERENCE)].map((match) => match[1]);
    }),
  );
}
