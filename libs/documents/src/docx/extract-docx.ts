import { DomainError } from '@docconv/contracts';
import { open } from 'node:fs/promises';
import { DecompressionBudget, DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { escapeHeadingText, escapeLineStart, escapeText } from '@docconv/model';
import { linkDestination } from '@docconv/model';
import { gridRows, tableMarkdown, withoutLines, type PlacedCell, type GridCell as TableCell } from '@docconv/model';
import { withZip } from '../zip/zip-reader';
import { ImageCollector, imageMarkdown, type ExtractedImage } from '../images';
import { Numbering, type ListLabel } from './docx-numbering';
import { DocxPackageError, readDocxPackage, type DocxPackage, type DocxPart, type Relationship } from './docx-package';
import { StyleBook } from './docx-styles';
import { renderInline, type Link, type Piece } from '@docconv/model';
import { ommlToLatex } from './omml-latex';
import { attr, child, descendant, elements, intVal, isElement, onOff, textOf, val, type XmlElement } from './xml-tree';

const ADVICE = 'Open it in Word, save it again as a .docx file and upload the new copy.';

type Block =
  | {
      type: 'paragraph';
      /** Inline Markdown; `\n` marks a line break inside the paragraph. */
      text: string;
      heading?: number;
      title: boolean;
      quote: boolean;
      list?: { ilvl: number; label: ListLabel };
    }
  | { type: 'math'; latex: string }
  | { type: 'table'; rows: TableCell[][] }
  /** Markdown written elsewhere (a chart's title and data table). */
  | { type: 'markdown'; markdown: string };

/** A row of a Word table as read: the grid columns left empty before and after its cells. */
interface WordRow {
  before: number;
  after: number;
  cells: WordCell[];
}

/** A cell of a Word table as read: the grid columns it spans and whether it continues a merged cell. */
interface WordCell {
  span: number;
  merge?: 'vertical' | 'horizontal';
  blocks: Block[];
}

/** What a paragraph collects while its content is read. */
interface ParagraphContent {
  pieces: Piece[];
  /** Blocks anchored in the paragraph (text boxes), written after it. */
  anchored: Block[];
  /** The pieces that are equations, to tell a paragraph holding only an equation. */
  math: Map<Piece, string>;
}

interface RunFormat {
  bold: boolean;
  italic: boolean;
  strike: boolean;
  hidden: boolean;
}

/** A complex field (`w:fldChar` begin … separate … end) that is open at the current run. */
interface OpenField {
  instruction: string;
  showingResult: boolean;
  link?: Link;
}

/**
 * Markdown from a Word document (.docx, .docm): headings from the heading, title and outline
 * styles, nested bulleted and numbered lists with Word's own numbering, bold, italic and
 * strikethrough, links, tables (GFM, or HTML with row and column spans when cells are merged;
 * every row as wide as the widest), text boxes after the paragraph they are anchored in, equations
 * as LaTeX, footnotes and endnotes as GFM footnotes, charts as their title and a table of their
 * data. Images become a short placeholder when
 * they have alternative text; headers, footers and comments are left out.
 */
export async function extractDocx(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<string> {
  return (await extractDocxWithImages(path, displayName, limits)).markdown;
}

/** `extractDocx`, with the pictures taken out and linked under `imagePrefix` when it is given. */
export async function extractDocxWithImages(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
  imagePrefix?: string,
): Promise<{ markdown: string; images: ExtractedImage[] }> {
  let docx: DocxPackage;
  try {
    docx = await withZip(path, readDocxPackage, new DecompressionBudget(displayName, limits));
  } catch (error) {
    if (isSystemError(error) || error instanceof DomainError) throw error;
    const { reason, advice } = await diagnose(error, path);
    throw new DomainError(
      'file_processing_failed',
      `${displayName} could not be read as a Word document: ${reason}. ${advice}`,
      { cause: error },
    );
  }
  let converter: DocxConverter;
  let markdown: string;
  try {
    converter = new DocxConverter(docx);
    markdown = converter.markdown();
  } catch (error) {
    throw new DomainError(
      'file_processing_failed',
      `${displayName} could not be read as a Word document: its content has a structure this converter cannot follow. ${ADVICE}`,
      { cause: error },
    );
  }
  return withPictures(markdown, converter.pictures, docx.media, imagePrefix);
}

/** Stands in the Markdown for the `n`th picture until its link or placeholder is known. */
const PICTURE_TOKEN = /\uE020(\d+)\uE021/g;

/**
 * The pictures' tokens replaced: with `imagePrefix`, each picture the package holds as a raster
 * image is taken out and linked (`![alt](images/image-1.png)`); the rest, and every picture
 * without a prefix, stay the placeholder of their alternative text, or nothing without one.
 */
async function withPictures(
  markdown: string,
  pictures: Picture[],
  media: Map<string, Buffer>,
  imagePrefix: string | undefined,
): Promise<{ markdown: string; images: ExtractedImage[] }> {
  const collector = new ImageCollector(imagePrefix ?? '');
  const links: string[] = [];
  for (const [i, picture] of pictures.entries()) {
    const bytes = picture.target === undefined ? undefined : media.get(picture.target);
    const name = imagePrefix !== undefined && bytes ? await collector.add(`image-${i + 1}`, bytes) : undefined;
    links.push(name ? imageMarkdown(picture.alt, name) : placeholder(picture.alt));
  }
  return { markdown: markdown.replace(PICTURE_TOKEN, (_, n: string) => links[Number(n)]), images: collector.images };
}

/** The text a picture leaves when it is not taken out: its alternative text, bracketed once. */
function placeholder(alt: string): string {
  if (alt === '') return '';
  // Every bracket of the description escaped once, so that the placeholder's own stay a pair.
  return `[Image: ${escapeText(alt).replace(/\\[!-/:-@[-`{-~]|[[\]]/g, (m) => (m.length === 1 ? `\\${m}` : m))}]`;
}

/** A picture met in the document: its alternative text and the package part holding it. */
interface Picture {
  alt: string;
  target?: string;
}

/** Errors of the file system (the upload is missing, too many open files): not the document's fault. */
function isSystemError(error: unknown): boolean {
  return error instanceof Error && 'syscall' in error;
}

/** Why the package could not be read, and what the user can do about it. */
async function diagnose(error: unknown, path: string): Promise<{ reason: string; advice: string }> {
  if (error instanceof DocxPackageError) return { reason: error.message, advice: error.advice ?? ADVICE };
  const head = Buffer.alloc(8);
  try {
    const file = await open(path, 'r');
    try {
      await file.read(head, 0, 8, 0);
    } finally {
      await file.close();
    }
  } catch {
    // the file was readable a moment ago; the generic reason below still holds
  }
  if (head.readUInt32BE(0) === 0xd0cf11e0) {
    return {
      reason: 'it is password-protected, or an old Word 97–2003 (.doc) file',
      advice: 'Remove the password or save it as a .docx file in Word, then upload it again.',
    };
  }
  if (head.readUInt32BE(0) !== 0x504b0304) {
    return { reason: 'it is not a .docx file (a .docx file is a ZIP package)', advice: ADVICE };
  }
  return { reason: 'its ZIP package is damaged or incomplete', advice: ADVICE };
}

class DocxConverter {
  private readonly styles: StyleBook;
  private readonly numbering: Numbering;
  private readonly footnotes: Map<string, XmlElement>;
  private readonly endnotes: Map<string, XmlElement>;
  /** Relationships of the part being read: the main document, or the notes part of a note. */
  private relationships: Map<string, Relationship>;
  private readonly noteLabels = new Map<string, number>();
  private readonly notes: string[] = [];
  private fields: OpenField[] = [];
  private links = 0;
  /** The pictures met, in order; the Markdown holds a token for each. */
  readonly pictures: Picture[] = [];

  constructor(private readonly docx: DocxPackage) {
    this.styles = new StyleBook(docx.styles);
    this.numbering = new Numbering(docx.numbering, this.styles);
    this.footnotes = notesById(docx.footnotes, 'w:footnote');
    this.endnotes = notesById(docx.endnotes, 'w:endnote');
    this.relationships = docx.document.relationships;
  }

  markdown(): string {
    const blocks = this.blocks(child(this.docx.document.root, 'w:body'));
    const parts = [renderBlocks(blocks), this.notes.join('\n')].filter((s) => s !== '');
    const text = parts
      .join('\n\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    return text === '' ? '' : `${text}\n`;
  }

  // ---- blocks -------------------------------------------------------------------------

  private blocks(container: XmlElement | undefined): Block[] {
    const out: Block[] = [];
    this.blockChildren(container, out);
    return out;
  }

  private blockChildren(container: XmlElement | undefined, out: Block[]): void {
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

  private paragraph(p: XmlElement, out: Block[]): void {
    const pPr = child(p, 'w:pPr');
    const styleId = this.styles.paragraphStyleId(val(pPr, 'w:pStyle'));
    const style = this.styles.paragraph(styleId);
    const content: ParagraphContent = { pieces: [], anchored: [], math: new Map() };
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

    const meaningful = content.pieces.filter(
      (piece) => piece.kind !== 'break' && (piece.kind !== 'text' || /\S/.test(piece.text)),
    );
    if (meaningful.length > 0 && meaningful.every((piece) => content.math.has(piece))) {
      for (const piece of meaningful) out.push({ type: 'math', latex: content.math.get(piece) ?? '' });
      out.push(...content.anchored);
      return;
    }

    const plainHeading = heading !== undefined || title;
    let text = renderInline(plainHeading ? content.pieces.map(unbold) : content.pieces);
    if (text !== '' && list && (plainHeading || list.label.kind === 'label')) {
      text = `${escapeText(list.label.text)} ${text}`;
    }
    if (text !== '') {
      out.push({
        type: 'paragraph',
        text,
        heading,
        title,
        quote: style.quote,
        list: plainHeading ? undefined : list,
      });
    }
    out.push(...content.anchored);
  }

  private table(tbl: XmlElement): Block[] {
    const rows: WordRow[] = [];
    for (const tr of nested(tbl, 'w:tr')) {
      const trPr = child(tr, 'w:trPr');
      const cells: WordCell[] = [];
      for (const tc of nested(tr, 'w:tc')) {
        const tcPr = child(tc, 'w:tcPr');
        const vMerge = child(tcPr, 'w:vMerge');
        const hMerge = child(tcPr, 'w:hMerge');
        cells.push({
          span: Math.min(64, Math.max(1, intVal(tcPr, 'w:gridSpan') ?? 1)),
          merge:
            vMerge && attr(vMerge, 'w:val') !== 'restart'
              ? 'vertical'
              : hMerge && attr(hMerge, 'w:val') !== 'restart'
                ? 'horizontal'
                : undefined,
          blocks: this.blocks(tc),
        });
      }
      rows.push({ before: intVal(trPr, 'w:gridBefore') ?? 0, after: intVal(trPr, 'w:gridAfter') ?? 0, cells });
    }
    // A table of one cell is a frame drawn around its content: keep the content as it is.
    if (rows.length === 1 && rows[0].cells.length === 1) return rows[0].cells[0].blocks;

    // A table nested in a cell is written after the table that holds it: table cells hold one
    // line, and a table flattened into a line of text loses the rows a reader needs.
    const hoisted: Block[] = [];
    for (const row of rows) {
      for (const cell of row.cells) {
        hoisted.push(...cell.blocks.filter((b) => b.type === 'table'));
        cell.blocks = cell.blocks.filter((b) => b.type !== 'table');
      }
    }

    const table = withoutEmptyLines(placeCells(rows));
    return table.length === 0 ? hoisted : [{ type: 'table', rows: table }, ...hoisted];
  }

  // ---- inline content -----------------------------------------------------------------

  private inline(parent: XmlElement | undefined, content: ParagraphContent, link: Link | undefined): void {
    for (const node of elements(parent)) {
      switch (node.name) {
        case 'w:r':
          this.run(node.children, this.runFormat(child(node, 'w:rPr')), content, link);
          break;
        case 'w:hyperlink':
          this.inline(node, content, this.hyperlink(node) ?? link);
          break;
        case 'w:fldSimple':
          this.inline(node, content, this.fieldLink(attr(node, 'w:instr') ?? '') ?? link);
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
    if (!this.visible()) return;
    const latex = ommlToLatex(math);
    if (latex === '') return;
    const piece: Piece = { kind: 'raw', markdown: `$${latex}$` };
    content.pieces.push(piece);
    content.math.set(piece, latex);
  }

  private run(
    nodes: XmlElement['children'],
    format: RunFormat,
    content: ParagraphContent,
    link: Link | undefined,
  ): void {
    const push = (text: string): void => {
      if (format.hidden || !this.visible() || text === '') return;
      content.pieces.push({
        kind: 'text',
        text,
        bold: format.bold,
        italic: format.italic,
        strike: format.strike,
        link: this.fieldLinkInForce() ?? link,
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
          if (!format.hidden && this.visible()) content.pieces.push({ kind: 'break' });
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
          this.fieldChar(attr(node, 'w:fldCharType'));
          break;
        case 'w:instrText': {
          const field = this.fields.at(-1);
          if (field && !field.showingResult) field.instruction += textOf(node);
          break;
        }
        case 'w:footnoteReference':
        case 'w:endnoteReference': {
          if (!this.visible()) break;
          const note = this.noteReference(
            node.name === 'w:footnoteReference' ? 'footnote' : 'endnote',
            attr(node, 'w:id'),
          );
          if (note) content.pieces.push(note);
          break;
        }
        case 'w:drawing':
        case 'w:pict':
        case 'w:object':
          if (this.visible()) this.drawing(node, content);
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

  private runFormat(rPr: XmlElement | undefined): RunFormat {
    const styled = this.styles.character(val(rPr, 'w:rStyle'));
    return {
      bold: onOff(rPr, 'w:b') ?? styled.bold ?? false,
      italic: onOff(rPr, 'w:i') ?? styled.italic ?? false,
      strike: onOff(rPr, 'w:strike') ?? onOff(rPr, 'w:dstrike') ?? styled.strike ?? false,
      hidden: onOff(rPr, 'w:vanish') ?? styled.hidden ?? false,
    };
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
          if (chart) content.anchored.push({ type: 'markdown', markdown: chart });
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

  /** A picture: a token its link or placeholder replaces once the pictures are taken out (see `withPictures`). */
  private picture(description: string | undefined, content: ParagraphContent, relationshipId?: string): void {
    const alt = (description ?? '')
      .replace(/\s*(Description automatically generated|AI-generated content may be incorrect)[\s\S]*$/i, '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 200);
    const relationship = relationshipId === undefined ? undefined : this.relationships.get(relationshipId);
    const target = relationship && !relationship.external ? relationship.target : undefined;
    this.pictures.push({ alt, target });
    content.pieces.push({ kind: 'raw', markdown: `\uE020${this.pictures.length - 1}\uE021` });
  }

  // ---- fields, links and notes --------------------------------------------------------

  private fieldChar(type: string | undefined): void {
    if (type === 'begin') this.fields.push({ instruction: '', showingResult: false });
    else if (type === 'separate') {
      const field = this.fields.at(-1);
      if (field && !field.showingResult) {
        field.showingResult = true;
        field.link = this.fieldLink(field.instruction);
      }
    } else if (type === 'end') this.fields.pop();
  }

  /** Text shows unless it belongs to a field's instruction. */
  private visible(): boolean {
    return this.fields.every((f) => f.showingResult);
  }

  private fieldLinkInForce(): Link | undefined {
    for (let i = this.fields.length - 1; i >= 0; i--) {
      const link = this.fields[i].link;
      if (link) return link;
    }
    return undefined;
  }

  /** The link of a HYPERLINK field instruction; undefined for other fields and for links inside the document. */
  private fieldLink(instruction: string): Link | undefined {
    const match = /^\s*HYPERLINK\s+(.*)$/is.exec(instruction);
    if (!match) return undefined;
    const tokens = [...match[1].matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
    let url: string | undefined;
    let anchor: string | undefined;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      if (/^\\[lo]$/i.test(token)) {
        if (token.toLowerCase() === '\\l') anchor = tokens[i + 1];
        i++;
      } else if (token.startsWith('\\')) continue;
      else url ??= token;
    }
    if (url === undefined) return undefined;
    return this.link(anchor === undefined ? url : `${url}#${anchor}`);
  }

  private hyperlink(element: XmlElement): Link | undefined {
    const id = attr(element, 'r:id');
    const rel = id === undefined ? undefined : this.relationships.get(id);
    if (!rel?.external) return undefined;
    const anchor = attr(element, 'w:anchor');
    return this.link(anchor === undefined ? rel.target : `${rel.target}#${anchor}`);
  }

  /** A link to an address readers can follow; other schemes (javascript:, file:) are not linked. */
  private link(target: string): Link | undefined {
    const href = linkDestination(target);
    return href === undefined ? undefined : { id: ++this.links, href };
  }

  private noteReference(kind: 'footnote' | 'endnote', id: string | undefined): Piece | undefined {
    if (id === undefined) return undefined;
    const key = `${kind}:${id}`;
    let label = this.noteLabels.get(key);
    if (label === undefined) {
      const part = kind === 'footnote' ? this.docx.footnotes : this.docx.endnotes;
      const note = (kind === 'footnote' ? this.footnotes : this.endnotes).get(id);
      if (!note || !part) return undefined;
      this.noteLabels.set(key, 0);
      const text = this.isolated(() => flatten(this.blocks(note)), part.relationships);
      if (text === '') return undefined;
      label = this.notes.length + 1;
      this.noteLabels.set(key, label);
      this.notes.push(`[^${label}]: ${text}`);
    }
    return label === 0 ? undefined : { kind: 'raw', markdown: `[^${label}]` };
  }

  /** Reads nested content (a text box, a note) without the fields open around its anchor. */
  private isolated<T>(read: () => T, relationships = this.relationships): T {
    const fields = this.fields;
    const outer = this.relationships;
    this.fields = [];
    this.relationships = relationships;
    try {
      return read();
    } finally {
      this.fields = fields;
      this.relationships = outer;
    }
  }
}

// ---- helpers ----------------------------------------------------------------------------

function notesById(part: DocxPart | undefined, name: string): Map<string, XmlElement> {
  const out = new Map<string, XmlElement>();
  for (const note of elements(part?.root, name)) {
    const id = attr(note, 'w:id');
    const type = attr(note, 'w:type');
    if (id !== undefined && (type === undefined || type === 'normal')) out.set(id, note);
  }
  return out;
}

/** The content Word shows for markup-compatibility alternatives: the preferred choice, else the fallback. */
function alternative(element: XmlElement): XmlElement | undefined {
  return child(element, 'mc:Choice') ?? child(element, 'mc:Fallback');
}

/** Rows of a table or cells of a row, including those wrapped in content controls or custom XML. */
function nested(parent: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const node of elements(parent)) {
    if (node.name === name) out.push(node);
    else if (node.name === 'w:sdt') out.push(...nested(child(node, 'w:sdtContent') ?? node, name));
    else if (node.name === 'w:customXml') out.push(...nested(node, name));
  }
  return out;
}

function unbold(piece: Piece): Piece {
  return piece.kind === 'text' ? { ...piece, bold: false } : piece;
}

/**
 * The cells of a Word table on its grid. A cell continuing a vertical merge makes the cell above
 * it a row taller, one continuing a horizontal merge makes the cell before it wider; their own
 * content is not shown, as in Word.
 */
function placeCells(rows: WordRow[]): { cells: PlacedCell[]; height: number; width: number } {
  const cells: PlacedCell[] = [];
  let above: (PlacedCell | undefined)[] = [];
  let width = 0;
  rows.forEach((row, r) => {
    const here: (PlacedCell | undefined)[] = [];
    let col = Math.min(row.before, 64);
    let previous: PlacedCell | undefined;
    for (const cell of row.cells) {
      const up = above[col];
      let target: PlacedCell;
      if (cell.merge === 'vertical' && up && up.row + up.rowspan === r) {
        up.rowspan++;
        target = up;
      } else if (cell.merge === 'horizontal' && previous?.row === r && previous.rowspan === 1) {
        previous.colspan += cell.span;
        target = previous;
      } else {
        target = {
          row: r,
          col,
          rowspan: 1,
          colspan: cell.span,
          text: flatten(cell.blocks).replace(/\s+/g, ' ').trim(),
        };
        cells.push(target);
      }
      for (let k = col; k < col + cell.span; k++) here[k] = target;
      col += cell.span;
      previous = target;
    }
    width = Math.max(width, col + Math.min(row.after, 64));
    above = here;
  });
  return { cells, height: rows.length, width };
}

/** The rows of a table without the rows and columns where no cell shows text: those are spacing, not content. */
function withoutEmptyLines({
  cells,
  height,
  width,
}: {
  cells: PlacedCell[];
  height: number;
  width: number;
}): TableCell[][] {
  const keepRows = Array<boolean>(height).fill(false);
  const keepCols = Array<boolean>(width).fill(false);
  for (const cell of cells) {
    if (cell.text === '') continue;
    for (let r = cell.row; r < cell.row + cell.rowspan; r++) keepRows[r] = true;
    for (let c = cell.col; c < cell.col + cell.colspan; c++) keepCols[c] = true;
  }
  return gridRows(
    withoutLines(cells, keepRows, keepCols),
    keepRows.filter(Boolean).length,
    keepCols.filter(Boolean).length,
  );
}

/** Blocks as one line of inline Markdown, for a table cell or a note. */
function flatten(blocks: Block[]): string {
  return blocks
    .map((block) => {
      switch (block.type) {
        case 'math':
          return `$${block.latex}$`;
        case 'table':
          return block.rows.map((row) => row.map((cell) => cell.text).join(' ')).join(' ');
        case 'markdown':
          return block.markdown.replace(/\s*\n\s*/g, ' ');
        case 'paragraph': {
          const label = block.list?.label;
          const marker = !label ? '' : label.kind === 'ordered' ? `${label.number}${label.delimiter} ` : '• ';
          return marker + block.text.replace(/\n/g, ' ');
        }
      }
    })
    .filter((text) => text.trim() !== '')
    .join(' ')
    .trim();
}

/** Blocks as Markdown: one blank line between blocks, list items of one list on consecutive lines. */
function renderBlocks(blocks: Block[]): string {
  const headingShift = blocks.some((b) => b.type === 'paragraph' && b.title) ? 1 : 0;
  let md = '';
  let stack: { ilvl: number; childIndent: number }[] = [];
  let root: { key: string; ordered: boolean; alternate: boolean } | undefined;
  let afterListItem = false;

  for (const block of blocks) {
    if (block.type === 'paragraph' && block.list) {
      const { ilvl, label } = block.list;
      while (stack.length > 0 && (stack.at(-1)?.ilvl ?? 0) >= ilvl) stack.pop();
      const indent = stack.at(-1)?.childIndent ?? 0;
      const ordered = label.kind === 'ordered';
      let alternate = false;
      if (stack.length === 0) {
        // Markdown joins adjacent lists of the same kind; a different marker keeps distinct lists apart.
        const continues = afterListItem && root?.ordered === ordered;
        alternate = continues && root ? (root.key === label.listKey ? root.alternate : !root.alternate) : false;
        root = { key: label.listKey, ordered, alternate };
      }
      const marker = ordered
        ? `${label.number}${alternate ? (label.delimiter === '.' ? ')' : '.') : label.delimiter}`
        : alternate
          ? '*'
          : '-';
      const contentIndent = indent + marker.length + 1;
      const lines = block.text.split('\n').map(escapeLineStart);
      const item = lines.map((line, i) =>
        i === 0 ? `${' '.repeat(indent)}${marker} ${line}` : `${' '.repeat(contentIndent)}${line}`,
      );
      stack.push({ ilvl, childIndent: Math.max(contentIndent, indent + 4) });
      md += (md === '' ? '' : afterListItem ? '\n' : '\n\n') + item.join('  \n');
      afterListItem = true;
      continue;
    }

    stack = [];
    let text: string;
    switch (block.type) {
      case 'math':
        text = `$$${block.latex}$$`;
        break;
      case 'table':
        text = tableMarkdown(block.rows);
        break;
      case 'markdown':
        text = block.markdown;
        break;
      case 'paragraph': {
        const oneLine = escapeHeadingText(block.text.replace(/\n/g, ' '));
        if (block.title) text = `# ${oneLine}`;
        else if (block.heading !== undefined)
          text = `${'#'.repeat(Math.min(6, block.heading + headingShift))} ${oneLine}`;
        else {
          const lines = block.text.split('\n').map(escapeLineStart);
          text = block.quote ? lines.map((line) => `> ${line}`).join('  \n') : lines.join('  \n');
        }
        break;
      }
    }
    md += (md === '' ? '' : '\n\n') + text;
    afterListItem = false;
  }
  return md;
}
