import type { FootnoteDefinition, Nodes, Root } from 'mdast';
import type { Block } from './document-blocks';
import { inlineRuns, plainText, type InlineRun } from './markdown-tree';

/** A GFM footnote's content: one list of runs per paragraph. */
export type NoteBody = InlineRun[][];

/** A piece of run text: plain text, or a reference to a footnote (by its Word id) where `[^id]` stood. */
export type NotePiece = { text: string } | { note: number; first: boolean };

/** `[^id]` as the block text writes a footnote reference. */
const REFERENCE = /\[\^([^\]\s]+)\]/g;
/** A footnote definition as the block text writes it: `[^id]: text`. */
const DEFINITION = /^\[\^([^\]\s]+)\]: /;

/**
 * The document's footnotes, read from the Markdown tree: every definition that some reference points to becomes a
 * Word footnote, numbered in the order the references come. A definition nothing refers to stays a paragraph, and a
 * reference with no definition is never parsed as one, so it stays text.
 */
export class DocxFootnotes {
  private readonly bodies = new Map<string, NoteBody>();
  private readonly ids = new Map<string, number>();

  constructor(root: Root) {
    const referenced = new Set<string>();
    const definitions: FootnoteDefinition[] = [];
    visit(root, (node) => {
      if (node.type === 'footnoteReference') referenced.add(node.identifier);
      else if (node.type === 'footnoteDefinition') definitions.push(node);
    });
    for (const definition of definitions) {
      if (referenced.has(definition.identifier) && !this.bodies.has(definition.identifier))
        this.bodies.set(definition.identifier, noteBody(definition));
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

/** A definition's paragraphs as runs; other content (a list, code) as its plain text. A note has one paragraph at least. */
function noteBody(definition: FootnoteDefinition): NoteBody {
  if (definition.children.length === 0) return [[]];
  return definition.children.map((child) =>
    child.type === 'paragraph'
      ? inlineRuns(child.children)
      : [{ text: plainText(child), bold: false, italic: false, strike: false, code: false, link: null }],
  );
}

function visit(node: Nodes, visitor: (node: Nodes) => void): void {
  visitor(node);
  if ('children' in node) for (const child of node.children as Nodes[]) visit(child, visitor);
}
