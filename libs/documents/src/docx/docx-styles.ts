import { attr, child, elements, intVal, onOff, val, type XmlElement } from './xml-tree';

/** Character formatting that Markdown can show. */
export interface CharacterFormat {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  hidden?: boolean;
}

/** What a paragraph style means for the Markdown structure. */
export interface ParagraphStyle {
  /** 1 for "heading 1" (or outline level 1), … */
  headingLevel?: number;
  title: boolean;
  quote: boolean;
  /** List numbering that comes with the style (List Bullet, List Number, numbered headings). */
  numId?: string;
  ilvl?: number;
}

interface StyleDefinition {
  id: string;
  type: string;
  name: string;
  basedOn?: string;
  numId?: string;
  ilvl?: number;
  outlineLevel?: number;
  format: CharacterFormat;
}

const MAX_CHAIN = 32;

/** The styles part: paragraph styles resolved through `basedOn`, character styles, numbering styles. */
export class StyleBook {
  private readonly styles = new Map<string, StyleDefinition>();
  private readonly defaultParagraph?: string;
  private readonly resolved = new Map<string, ParagraphStyle>();

  constructor(root: XmlElement | undefined) {
    let defaultParagraph: string | undefined;
    for (const style of elements(root, 'w:style')) {
      const id = attr(style, 'w:styleId');
      if (id === undefined) continue;
      const type = attr(style, 'w:type') ?? 'paragraph';
      const pPr = child(style, 'w:pPr');
      const numPr = child(pPr, 'w:numPr');
      const rPr = child(style, 'w:rPr');
      this.styles.set(id, {
        id,
        type,
        name: (val(style, 'w:name') ?? '').trim().toLowerCase(),
        basedOn: val(style, 'w:basedOn'),
        numId: val(numPr, 'w:numId'),
        ilvl: intVal(numPr, 'w:ilvl'),
        outlineLevel: intVal(pPr, 'w:outlineLvl'),
        format: {
          bold: onOff(rPr, 'w:b'),
          italic: onOff(rPr, 'w:i'),
          strike: onOff(rPr, 'w:strike') ?? onOff(rPr, 'w:dstrike'),
          hidden: onOff(rPr, 'w:vanish'),
        },
      });
      const isDefault = attr(style, 'w:default');
      if (type === 'paragraph' && (isDefault === '1' || isDefault === 'true')) defaultParagraph = id;
    }
    this.defaultParagraph = defaultParagraph;
  }

  /** The style a paragraph uses: its `w:pStyle`, else the document's default paragraph style. */
  paragraphStyleId(pStyle: string | undefined): string | undefined {
    return pStyle ?? this.defaultParagraph;
  }

  paragraph(styleId: string | undefined): ParagraphStyle {
    if (styleId === undefined) return { title: false, quote: false };
    const cached = this.resolved.get(styleId);
    if (cached) return cached;
    const out: ParagraphStyle = { title: false, quote: false };
    let outlineLevel: number | undefined;
    let named: number | undefined;
    for (const style of this.chain(styleId)) {
      const heading = /^heading\s*([1-9])$/.exec(style.name) ?? /^heading([1-9])$/i.exec(style.id);
      if (named === undefined && heading) named = Number(heading[1]);
      outlineLevel ??= style.outlineLevel;
      if (style.name === 'title') out.title = true;
      if (style.name === 'quote' || style.name === 'intense quote') out.quote = true;
      out.numId ??= style.numId;
      out.ilvl ??= style.ilvl;
    }
    const level =
      named ?? (outlineLevel !== undefined && outlineLevel >= 0 && outlineLevel < 9 ? outlineLevel + 1 : undefined);
    if (level !== undefined && !out.title) out.headingLevel = level;
    this.resolved.set(styleId, out);
    return out;
  }

  /** The formatting a character style (`w:rStyle`) applies, nearest definition first. */
  character(styleId: string | undefined): CharacterFormat {
    const out: CharacterFormat = {};
    if (styleId === undefined) return out;
    for (const style of this.chain(styleId)) {
      out.bold ??= style.format.bold;
      out.italic ??= style.format.italic;
      out.strike ??= style.format.strike;
      out.hidden ??= style.format.hidden;
    }
    return out;
  }

  /** A run's formatting: its own properties (`w:rPr`), else its character style's, else none. */
  run(rPr: XmlElement | undefined): Required<CharacterFormat> {
    const styled = this.character(val(rPr, 'w:rStyle'));
    return {
      bold: onOff(rPr, 'w:b') ?? styled.bold ?? false,
      italic: onOff(rPr, 'w:i') ?? styled.italic ?? false,
      strike: onOff(rPr, 'w:strike') ?? onOff(rPr, 'w:dstrike') ?? styled.strike ?? false,
      hidden: onOff(rPr, 'w:vanish') ?? styled.hidden ?? false,
    };
  }

  /** The `w:numId` of a numbering style, for abstract numberings that link to one. */
  numberingStyleNumId(styleId: string): string | undefined {
    for (const style of this.chain(styleId)) if (style.numId !== undefined) return style.numId;
    return undefined;
  }

  private *chain(styleId: string): Generator<StyleDefinition> {
    const seen = new Set<string>();
    let id: string | undefined = styleId;
    while (id !== undefined && !seen.has(id) && seen.size < MAX_CHAIN) {
      seen.add(id);
      const style = this.styles.get(id);
      if (!style) return;
      yield style;
      id = style.basedOn;
    }
  }
}
