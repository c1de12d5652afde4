import {
  linkDestination,
  type Block,
  type FootnoteBlock,
  type ImageInline,
  type Inline,
  type Provenance,
} from '@docconv/model';
import { shows } from '@docconv/model';
import { flatten, modelBlocks, unbold, type DocxBlock } from './docx-blocks';
import { FieldStack, fieldLink } from './docx-fields';
import { Numbering, type ListLabel } from './docx-numbering';
import { alternative, notesById, pictureAlt } from './docx-markup';
import type { DocxPackage, Relationship } from './docx-package';
import { StyleBook, type CharacterFormat } from './docx-styles';
import { readWordTable } from './docx-tables';
import { ommlToLatex } from './omml-latex';
import { attr, child, descendant, elements, intVal, isElement, textOf, val, type XmlElement } from './xml-tree';

/** What a paragraph collects while its content is read. */
interface ParagraphContent {
  inlines: Inline[];
  /** Blocks anchored in the paragraph (text boxes, charts), placed after it. */
  anchored: DocxBlock[];
  /** The inlines that are equations, to tell a paragraph holding only equations. */
  math: Set<Inline>;
}

/** A picture met in the document: its alternative text, the package part holding it, and its place in the content. */
export interface Picture {
  alt: string;
  target?: string;
  /** Its inline, without a stored file (`src` empty) until the pictures are taken out. */
  inline: ImageInline;
}

/**
 * Reads a Word package's main document into model blocks: headings from the heading, title and
 * outline styles, lists with Word's own numbering, bold, italic, strikethrough and links as run
 * formatting, tables on their grid with spans, text boxes and charts after the paragraph they
 * are anchored in, equations as TeX, footnotes and endnotes as footnote blocks after the body.
 * Pictures are image inlines whose files are taken out afterwards (see `pictures`).
 */
export class DocxReader {
  private readonly styles: StyleBook;
  private readonly numbering: Numbering;
  private readonly footnotes: Map<string, XmlElement>;
  private readonly endnotes: Map<string, XmlElement>;
  /** Relationships of the part being read: the main document, or the notes part of a note. */
  private relationships: Map<string, Relationship>;
  /** Each note read, by `kind:id`: its label, or 0 while it is being read or when it shows nothing. */
  private readonly noteLabels = new Map<string, number>();
  private readonly notes: { label: string; content: Inline[] }[] = [];
  private fields = new FieldStack();
  /** The pictures met, in order. */
  readonly pictures: Picture[] = [];
  /** Where the blocks read come from: the file being read. */
  private from: Provenance = { file: '' };

  constructor(private readonly docx: DocxPackage) {
    this.styles = new StyleBook(docx.styles);
    this.numbering = new Numbering(docx.numbering, this.styles);
    this.footnotes = notesById(docx.footnotes, 'w:footnote');
    this.endnotes = notesById(docx.endnotes, 'w:endnote');
    this.relationships = docx.document.relationships;
  }

  /** The document's blocks, each from `file`: the body, then the notes it refers to. */
  read(file: string): Block[] {
    const from = { file };
    this.from = from;
    const body = modelBlocks(this.blocks(child(this.docx.document.root, 'w:body')), from);
    const notes = this.notes.map(({ label, content }): FootnoteBlock => ({ type: 'footnote', from, label, content }));
    return [...body, ...notes];
  }

  // ---- blocks -------------------------------------------------------------------------

  private blocks(container: XmlElement | undefined): DocxBlock[] {
    const out: DocxBlock[] = [];
    this.blockChildren(container, out);
    return out;
  }

  private blockChildren(container: XmlElement | undefined, out: DocxBlock[]): void {
    for (const node of elements(container)) {
      switch (node.name) {
        case 'w:p':
          this.paragraph(node, out);
          break;
        case 'w:tbl':
          out.push(...this.table(node));
          break;
        case 'w:sdt':
          this.blockChildren(child(node, 'w:sdtContent'), out);
          break;
        case 'w:customXml':
        case 'w:smartTag':
        case 'w:ins':
        case 'w:moveTo':
          this.blockChildren(node, out);
          break;
        case 'mc:AlternateContent':
          this.blockChildren(alternative(node), out);
          break;
        default:
          break;
      }
    }
  }

  private paragraph(p: XmlElement, out: DocxBlock[]): void {
    const pPr = child(p, 'w:pPr');
    const styleId = this.styles.paragraphStyleId(val(pPr, 'w:pStyle'));
    const style = this.styles.paragraph(styleId);
    const content: ParagraphContent = { inlines: [], anchored: [], math: new Set() };
    this.inline(p, content, undefined);

    const numPr = child(pPr, 'w:numPr');
    const numId = val(numPr, 'w:numId') ?? style.numId;
    let list: { ilvl: number; label: ListLabel } | undefined;
    if (numId !== undefined && numId !== '0') {
      const ilvl = intVal(numPr, 'w:ilvl') ?? style.ilvl ?? this.numbering.levelOfStyle(numId, styleId) ?? 0;
      const label = this.numbering.next(numId, ilvl);
      if (label && label.kind !== 'none') list = { ilvl, label };
    }

    const outline = intVal(pPr, 'w:outlineLvl');
    const heading =
      outline !== undefined ? (outline >= 0 && outline < 9 ? outline + 1 : undefined) : style.headingLevel;
    const title = heading === undefined && style.title;

    const meaningful = content.inlines.filter((inline) => shows([inline]));
    if (meaningful.length > 0 && meaningful.every((inline) => content.math.has(inline))) {
      for (const inline of meaningful) if (inline.kind === 'math') out.push({ type: 'math', tex: inline.tex });
      out.push(...content.anchored);
      return;
    }

    // Headings are not bold: the heading says it.
    const plainHeading = heading !== undefined || title;
    let inlines = plainHeading ? content.inlines.map(unbold) : content.inlines;
    if (shows(inlines) && list && (plainHeading || list.label.kind === 'label')) {
      inlines = [{ kind: 'text', text: `${list.label.text} ` }, ...inlines];
    }
    if (shows(inlines)) {
      out.push({
        type: 'paragraph',
        content: inlines,
        heading,
        title,
        quote: style.quote,
        list: plainHeading ? undefined : list,
      });
    }
    out.push(...content.anchored);
  }

  private table(tbl: XmlElement): DocxBlock[] {
    return readWordTable(tbl, (tc) => this.blocks(tc), this.from);
  }

  // ---- inline content -----------------------------------------------------------------

  private inline(parent: XmlElement | undefined, content: ParagraphContent, link: string | undefined): void {
    for (const node of elements(parent)) {
      switch (node.name) {
        case 'w:r':
          this.run(node.children, this.styles.run(child(node, 'w:rPr')), content, link);
          break;
        case 'w:hyperlink':
          this.inline(node, content, this.hyperlink(node) ?? link);
          break;
        case 'w:fldSimple':
          this.inline(node, content, fieldLink(attr(node, 'w:instr') ?? '') ?? link);
          break;
        case 'w:sdt':
          this.inline(child(node, 'w:sdtContent'), content, link);
          break;
        case 'w:smartTag':
        case 'w:customXml':
        case 'w:ins':
        case 'w:moveTo':
        case 'w:dir':
        case 'w:bdo':
          this.inline(node, content, link);
          break;
        case 'mc:AlternateContent':
          this.inline(alternative(node), content, link);
          break;
        case 'm:oMathPara':
          for (const math of elements(node, 'm:oMath')) this.math(math, content);
          break;
        case 'm:oMath':
          this.math(node, content);
          break;
        default:
          break;
      }
    }
  }

  private math(math: XmlElement, content: ParagraphContent): void {
    if (!this.fields.visible()) return;
    const tex = ommlToLatex(math);
    if (tex === '') return;
    const inline: Inline = { kind: 'math', tex };
    content.inlines.push(inline);
    content.math.add(inline);
  }

  private run(
    nodes: XmlElement['children'],
    format: Required<CharacterFormat>,
    content: ParagraphContent,
    link?: string,
  ): void {
    const push = (text: string): void => {
      if (format.hidden || !this.fields.visible() || text === '') return;
      const href = this.fields.link() ?? link;
      content.inlines.push({
        kind: 'text',
        text,
        ...(format.bold ? { bold: true } : {}),
        ...(format.italic ? { italic: true } : {}),
        ...(format.strike ? { strike: true } : {}),
        ...(href === undefined ? {} : { link: href }),
      });
    };
    for (const node of nodes) {
      if (!isElement(node)) continue;
      switch (node.name) {
        case 'w:t':
          push(textOf(node));
          break;
        case 'w:tab':
        case 'w:ptab':
          push(' ');
          break;
        case 'w:br':
        case 'w:cr':
          if (!format.hidden && this.fields.visible()) content.inlines.push({ kind: 'break' });
          break;
        case 'w:noBreakHyphen':
          push('-');
          break;
        case 'w:sym': {
          const code = parseInt(attr(node, 'w:char') ?? '', 16);
          // Codes in the private-use area are glyphs of symbol fonts (Wingdings, Symbol) with no fixed meaning.
          if (Number.isFinite(code) && code > 0 && (code < 0xe000 || code > 0xf8ff)) push(String.fromCodePoint(code));
          break;
        }
        case 'w:fldChar':
          this.fields.char(attr(node, 'w:fldCharType'));
          break;
        case 'w:instrText':
          this.fields.instruction(textOf(node));
          break;
        case 'w:footnoteReference':
        case 'w:endnoteReference': {
          if (!this.fields.visible()) break;
          const kind = node.name === 'w:footnoteReference' ? 'footnote' : 'endnote';
          const label = this.noteReference(kind, attr(node, 'w:id'));
          if (label !== undefined) content.inlines.push({ kind: 'note', label });
          break;
        }
        case 'w:drawing':
        case 'w:pict':
        case 'w:object':
          if (this.fields.visible()) this.drawing(node, content);
          break;
        case 'mc:AlternateContent':
          this.run(alternative(node)?.children ?? [], format, content, link);
          break;
        case 'w:ruby':
          this.inline(child(node, 'w:rubyBase'), content, link);
          break;
        default:
          break;
      }
    }
  }

  /** Text boxes and pictures inside a drawing or a VML shape. */
  private drawing(parent: XmlElement, content: ParagraphContent, alt?: string): void {
    let description = alt;
    for (const node of elements(parent)) {
      switch (node.name) {
        case 'w:txbxContent':
          content.anchored.push(...this.isolated(() => this.blocks(node)));
          break;
        case 'mc:AlternateContent':
          this.drawing(alternative(node) ?? node, content, description);
          break;
        case 'wp:docPr':
          description = attr(node, 'descr') ?? attr(node, 'title') ?? description;
          break;
        case 'c:chart': {
          const target = this.relationships.get(attr(node, 'r:id') ?? '')?.target;
          const chart = target === undefined ? undefined : this.docx.charts.get(target);
          if (chart) content.anchored.push({ type: 'chart', chart });
          break;
        }
        case 'pic:pic': {
          const own = attr(descendant(node, 'pic:cNvPr'), 'descr');
          const embed = attr(descendant(node, 'a:blip'), 'r:embed');
          this.picture(own !== undefined && own.trim() !== '' ? own : description, content, embed);
          break;
        }
        case 'v:imagedata':
          this.picture(attr(node, 'o:title') ?? attr(parent, 'alt') ?? description, content, attr(node, 'r:id'));
          break;
        default:
          this.drawing(node, content, description);
      }
    }
  }

  /** A picture: an image inline whose file is stored, or which becomes its alternative text, once the pictures are taken out. */
  private picture(description: string | undefined, content: ParagraphContent, relationshipId?: string): void {
    const alt = pictureAlt(description);
    const relationship = relationshipId === undefined ? undefined : this.relationships.get(relationshipId);
    const target = relationship && !relationship.external ? relationship.target : undefined;
    const inline: ImageInline = { kind: 'image', src: '', alt };
    this.pictures.push({ alt, target, inline });
    content.inlines.push(inline);
  }

  // ---- links and notes ----------------------------------------------------------------

  private hyperlink(element: XmlElement): string | undefined {
    const id = attr(element, 'r:id');
    const rel = id === undefined ? undefined : this.relationships.get(id);
    if (!rel?.external) return undefined;
    const anchor = attr(element, 'w:anchor');
    return linkDestination(anchor === undefined ? rel.target : `${rel.target}#${anchor}`);
  }

  /** The label of a note, read the first time it is referred to; undefined when it shows nothing. */
  private noteReference(kind: 'footnote' | 'endnote', id: string | undefined): string | undefined {
    if (id === undefined) return undefined;
    const key = `${kind}:${id}`;
    let label = this.noteLabels.get(key);
    if (label === undefined) {
      const part = kind === 'footnote' ? this.docx.footnotes : this.docx.endnotes;
      const note = (kind === 'footnote' ? this.footnotes : this.endnotes).get(id);
      if (!note || !part) return undefined;
      this.noteLabels.set(key, 0);
      const content = this.isolated(() => flatten(this.blocks(note)), part.relationships);
      if (!shows(content)) return undefined;
      label = this.notes.length + 1;
      this.noteLabels.set(key, label);
      this.notes.push({ label: String(label), content });
    }
    return label === 0 ? undefined : String(label);
  }

  /** Reads nested content (a text box, a note) without the fields open around its anchor. */
  private isolated<T>(read: () => T, relationships = this.relationships): T {
    const fields = this.fields;
    const outer = this.relationships;
    this.fields = new FieldStack();
    this.relationships = relationships;
    try {
      return read();
    } finally {
      this.fields = fields;
      this.relationships = outer;
    }
  }
}
