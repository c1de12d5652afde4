import { DomainError } from '@docconv/contracts';
import { DecompressionBudget, DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import type {
  Block,
  Caption,
  HancomDocument,
  HancomSection,
  Inline,
  Paragraph,
  ParagraphRole,
  Table,
  TableCell,
} from '../hancom/model';
import { styleRole } from '../hancom/styles';
import { NumberingCounter } from '../hancom/numbering';
import { parseXml, type XmlNode } from '../office/ooxml';
import { readCharts } from './hwpx-charts';
import type { Chart } from '../office/charts';
import { readHwpxSections } from './hwpx-file';
import { hyperlinkTarget, LINK_END, LINK_START, withLinks } from './hwpx-links';
import { formatting, type CharShape } from '../hancom/styles';
import { readStyleBook, type StyleBook } from './hwpx-styles';
import { attr, kids, subListParagraphs, tagName, textOf, walk, whole } from './hwpx-xml';

const MAX_TABLE_COLUMNS = 1000;
const ADVICE = 'Check that it opens in Hangul, or save it again as HWPX or HWP and upload that.';

/**
 * An HWPX (OWPML) document read into the Hancom model: every section's paragraphs with their
 * character formatting, roles and numbers from the style book (`Contents/header.xml`), tables with
 * their spans and captions, text boxes, charts, notes, equations, links, and the page headers and
 * footers.
 */
export async function readHwpx(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<HancomDocument> {
  let sections: string[];
  try {
    sections = await readHwpxSections(path, displayName, limits);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'payload_too_large') throw error;
    return refuse(displayName, 'it is not a readable HWPX package');
  }
  const budget = new DecompressionBudget(displayName, limits);
  const book = await readStyleBook(path, budget);
  if (book.encrypted)
    return refuse(displayName, 'it is password-protected', 'Save an unprotected copy in Hangul and upload that.');

  const reader = new SectionReader(book, await readCharts(path, sections, budget));
  const document: HancomDocument = { sections: [] };
  for (const [index, xml] of sections.entries()) {
    let roots: XmlNode[];
    try {
      roots = parseSection(xml, `section ${index + 1}`);
    } catch (error) {
      return refuse(displayName, error instanceof Error ? error.message : `section ${index + 1} cannot be parsed`);
    }
    try {
      document.sections.push(reader.section(roots));
    } catch {
      return refuse(displayName, `section ${index + 1} could not be converted`);
    }
  }
  return document;
}

/** The section elements of a section part; `name` ("section 2") words the errors. */
function parseSection(xml: string, name: string): XmlNode[] {
  const roots = parseXml(xml, name).children.filter((n) => tagName(n) === 'sec');
  if (roots.length === 0) throw new Error(`${name} has no section element`);
  return roots;
}

function refuse(displayName: string, reason: string, advice = ADVICE): never {
  throw new DomainError(
    'file_processing_failed',
    `${displayName} could not be read as an HWPX document: ${reason}. ${advice}`,
  );
}

/** Collects the inline content of a paragraph, and what the paragraph's controls add to its section. */
interface InlineSink {
  inlines: Inline[];
}

class SectionReader {
  private readonly counter = new NumberingCounter();
  /** The numbering the current section's outline paragraphs use. */
  private outline = '1';
  private headers: Block[][] = [];
  private footers: Block[][] = [];

  constructor(
    private readonly book: StyleBook,
    /** Chart parts as Markdown, by the name the sections give them. */
    private readonly charts: Map<string, Chart> = new Map(),
  ) {}

  section(roots: XmlNode[]): HancomSection {
    this.headers = [];
    this.footers = [];
    const blocks: Block[] = [];
    for (const root of roots) {
      for (const child of kids(root)) {
        if (tagName(child) !== 'p') continue;
        blocks.push(this.paragraph(child));
      }
    }
    return { blocks, headers: this.headers, footers: this.footers };
  }

  private paragraphs(nodes: XmlNode[]): Block[] {
    return nodes.map((p) => this.paragraph(p));
  }

  private paragraph(node: XmlNode): Paragraph {
    const sink: InlineSink = { inlines: [] };
    const { role, label } = this.role(node);
    for (const child of kids(node)) {
      if (tagName(child) === 'run') {
        const shape = this.book.charShapes.get(attr(child, 'charPrIDRef') ?? '');
        for (const item of kids(child)) this.runItem(item, sink, shape);
      } else {
        this.runItem(child, sink, undefined);
      }
    }
    return {
      type: 'paragraph',
      role,
      label,
      inlines: withLinks(sink.inlines),
      ...(attr(node, 'pageBreak') === '1' ? { pageBreak: true } : {}),
    };
  }

  /** The paragraph's role and the number or bullet drawn before it. */
  private role(paragraph: XmlNode): { role: ParagraphRole; label: string } {
    const shape = this.book.paraShapes.get(attr(paragraph, 'paraPrIDRef') ?? '');
    switch (shape?.type) {
      case 'OUTLINE':
        return {
          role: { kind: 'heading', level: Math.min(6, shape.level + 1) },
          label: this.number(`outline:${this.outline}`, this.outline, shape.level),
        };
      case 'NUMBER':
        return {
          role: { kind: 'list', level: shape.level, ordered: true },
          label: this.number(`number:${shape.ref}`, shape.ref, shape.level),
        };
      case 'BULLET':
        return {
          role: { kind: 'list', level: shape.level, ordered: false },
          label: this.book.bullets.get(shape.ref) ?? '',
        };
      default:
        break;
    }
    const role = styleRole(this.book.styles.get(attr(paragraph, 'styleIDRef') ?? '') ?? []);
    if (role) return { role, label: '' };
    return { role: { kind: 'body' }, label: '' };
  }

  private number(key: string, numberingId: string, level: number): string {
    const numbering = this.book.numberings.get(numberingId);
    return numbering ? this.counter.next(key, numbering, level) : '';
  }

  private runItem(item: XmlNode, sink: InlineSink, shape: CharShape | undefined): void {
    const text = (value: string): void => {
      if (value !== '') sink.inlines.push({ type: 'text', text: value, ...formatting(shape) });
    };
    const tag = tagName(item);
    switch (tag) {
      case '':
        return;
      case 't':
        for (const piece of kids(item)) {
          if (piece.name === '#text') text(piece.text.replace(/[\r\n]+/g, ' '));
          else this.runItem(piece, sink, shape);
        }
        return;
      case 'tab':
      case 'nbSpace':
      case 'fwSpace':
        text(' ');
        return;
      case 'lineBreak':
        sink.inlines.push({ type: 'break' });
        return;
      case 'hyphen':
        text('-');
        return;
      case 'tbl':
        sink.inlines.push({ type: 'table', table: this.table(item) });
        return;
      case 'ctrl':
        for (const control of kids(item)) this.control(control, sink, shape);
        return;
      case 'switch': {
        // Hangul writes a chart as a case, with an OLE object as the default for older readers.
        const options = kids(item);
        const chosen =
          options.find((o) => tagName(o) === 'case' && this.holdsChart(o)) ??
          options.find((o) => tagName(o) === 'default') ??
          options[0];
        if (chosen) for (const inner of kids(chosen)) this.runItem(inner, sink, shape);
        return;
      }
      case 'chart': {
        const chart = this.charts.get(attr(item, 'chartIDRef') ?? '');
        if (chart === undefined) {
          this.carriedText(item, sink);
          return;
        }
        const { caption } = this.caption(item);
        if (caption?.before && caption.blocks.length > 0)
          sink.inlines.push({ type: 'objects', blocks: caption.blocks });
        sink.inlines.push({ type: 'chart', chart });
        if (caption && !caption.before && caption.blocks.length > 0)
          sink.inlines.push({ type: 'objects', blocks: caption.blocks });
        return;
      }
      case 'compose':
        text(attr(item, 'composeText') ?? '');
        return;
      case 'textart':
        text(attr(item, 'text') ?? '');
        return;
      case 'dutmal': {
        const main = kids(item).find((k) => tagName(k) === 'mainText');
        if (main) text(textOf(main));
        return;
      }
      case 'equation': {
        const script = kids(item).find((k) => tagName(k) === 'script');
        sink.inlines.push({ type: 'equation', script: script ? textOf(script) : '' });
        return;
      }
      case 'pic':
      case 'ole': {
        const comment = kids(item).find((k) => tagName(k) === 'shapeComment');
        sink.inlines.push({ type: 'image', alt: comment ? textOf(comment) : '', ...this.caption(item) });
        return;
      }
      case 'secPr':
        this.outline = attr(item, 'outlineShapeIDRef') ?? this.outline;
        return;
      case 'linesegarray':
      case 'shapeComment':
      case 'markpenBegin':
      case 'markpenEnd':
      case 'titleMark':
      case 'insertBegin':
      case 'insertEnd':
      case 'deleteBegin':
      case 'deleteEnd':
        return;
      default:
        this.carriedText(item, sink);
    }
  }

  /** Drawing objects, charts whose part cannot be read, and forms: the text they carry (text boxes, captions). */
  private carriedText(item: XmlNode, sink: InlineSink): void {
    const { caption } = this.caption(item);
    const text = this.paragraphs(subListParagraphs(item));
    const blocks = caption?.before ? [...caption.blocks, ...text] : [...text, ...(caption?.blocks ?? [])];
    if (blocks.length > 0) sink.inlines.push({ type: 'objects', blocks });
  }

  /** Whether a `switch` case holds a chart whose part was read. */
  private holdsChart(option: XmlNode): boolean {
    let found = false;
    walk(kids(option), (node) => {
      if (tagName(node) === 'chart' && this.charts.has(attr(node, 'chartIDRef') ?? '')) found = true;
      return !found;
    });
    return found;
  }

  private control(control: XmlNode, sink: InlineSink, shape: CharShape | undefined): void {
    switch (tagName(control)) {
      case 'footNote':
      case 'endNote':
        sink.inlines.push({
          type: 'note',
          kind: tagName(control) === 'footNote' ? 'footnote' : 'endnote',
          blocks: this.paragraphs(subListParagraphs(control)),
        });
        return;
      case 'header':
        this.headers.push(this.paragraphs(subListParagraphs(control)));
        return;
      case 'footer':
        this.footers.push(this.paragraphs(subListParagraphs(control)));
        return;
      case 'autoNum': {
        const type = attr(control, 'numType') ?? '';
        const number = attr(control, 'num') ?? '';
        if (type !== 'FOOTNOTE' && type !== 'ENDNOTE' && type !== 'PAGE' && type !== 'TOTAL_PAGE' && number !== '')
          sink.inlines.push({ type: 'text', text: number, ...formatting(shape) });
        return;
      }
      case 'newNum': {
        const type = attr(control, 'numType') ?? '';
        if (type === 'PARA' || type === '') this.counter.restart(`number:${attr(control, 'num') ?? ''}`, 1);
        return;
      }
      case 'fieldBegin':
        if ((attr(control, 'type') ?? '') === 'HYPERLINK')
          sink.inlines.push({ type: 'link', href: hyperlinkTarget(control), inlines: [LINK_START] });
        return;
      case 'fieldEnd':
        sink.inlines.push(LINK_END);
        return;
      default:
        return; // page numbers, bookmarks, hidden comments, column definitions
    }
  }

  private caption(object: XmlNode): { caption?: Caption } {
    const caption = kids(object).find((k) => tagName(k) === 'caption');
    if (!caption) return {};
    return {
      caption: {
        before: ['TOP', 'LEFT'].includes(attr(caption, 'side') ?? ''),
        blocks: this.paragraphs(subListParagraphs(caption)),
      },
    };
  }

  /** A table: each cell at its address (or, without one, at the next free column) with its spans. */
  private table(table: XmlNode): Table {
    const trs = kids(table)
      .filter((k) => tagName(k) === 'tr')
      .map((tr) => kids(tr).filter((k) => tagName(k) === 'tc'));
    const widest = Math.max(0, ...trs.map((cells) => cells.length));
    const rows = trs.length;
    const reach = trs.flat().map((tc) => {
      const address = kids(tc).find((k) => tagName(k) === 'cellAddr');
      const span = kids(tc).find((k) => tagName(k) === 'cellSpan');
      return whole(address && attr(address, 'colAddr'), 0) + Math.max(1, whole(span && attr(span, 'colSpan'), 1));
    });
    const cols = Math.min(MAX_TABLE_COLUMNS, Math.max(widest, whole(attr(table, 'colCnt'), 0), ...reach));
    const cells: TableCell[] = [];
    /** Columns taken in later rows by cells spanning down, for cells that carry no address. */
    const covered = Array.from({ length: rows }, () => [] as [number, number][]);
    trs.forEach((tcs, rowIndex) => {
      let cursor = 0;
      for (const tc of tcs) {
        const parts = kids(tc);
        const address = parts.find((k) => tagName(k) === 'cellAddr');
        const span = parts.find((k) => tagName(k) === 'cellSpan');
        for (const [from, to] of covered[rowIndex]) if (cursor >= from && cursor < to) cursor = to;
        const row = Math.min(rows - 1, whole(address && attr(address, 'rowAddr'), rowIndex));
        const col = Math.min(Math.max(0, cols - 1), whole(address && attr(address, 'colAddr'), cursor));
        const rowSpan = Math.min(rows - row, Math.max(1, whole(span && attr(span, 'rowSpan'), 1)));
        const colSpan = Math.min(cols - col, Math.max(1, whole(span && attr(span, 'colSpan'), 1)));
        if (!address) for (let r = row + 1; r < row + rowSpan; r++) covered[r].push([col, col + colSpan]);
        cells.push({ row, col, rowSpan, colSpan, blocks: this.paragraphs(subListParagraphs(tc)) });
        cursor = col + colSpan;
      }
    });
    return { type: 'table', rows, cols, cells, ...this.caption(table) };
  }
}
