import { element, OWPML_NAMESPACES, OWPML_VERSION, xmlPart, type Attributes } from './hwpx-xml';

/**
 * The style book of an HWPX document (`Contents/header.xml`): fonts, borders and fills, character
 * shapes, paragraph shapes with the heading and bullet settings Hancom draws from, and the named
 * styles. Paragraph shapes and styles are a fixed set; character shapes are added as the section
 * asks for them, one per distinct look.
 *
 * Lengths are HWPUNIT (1/7200 inch, 100 to the point); font heights are hundredths of a point.
 */

/** The width of the text on an A4 page with Hancom's default margins, in HWPUNIT. */
export const TEXT_WIDTH = 42_520;

/** Heading levels with their own style (개요 1 … 개요 6); deeper Markdown headings use the last. */
export const HEADING_LEVELS = 6;
/** List nesting levels with their own indentation; deeper items share the last. */
export const LIST_LEVELS = 6;

/** The numbering that outline (heading) paragraphs use; it draws no number, since Markdown headings carry their own. */
export const OUTLINE_NUMBERING_ID = 1;

/** Borders and fills, by what they are for. */
export const BORDER_FILL = {
  /** No border and no fill: pages, characters, plain paragraphs. */
  none: 1,
  /** A table cell: a thin solid line on every side. */
  cell: 2,
  /** A header cell: the cell lines over a light fill. */
  headerCell: 3,
  /** A thematic break: a line under an empty paragraph. */
  rule: 4,
  /** A code block: a light grey fill. */
  code: 5,
  /** A block quote: a line on the left. */
  quote: 6,
} as const;

/** Font slots, the same in every language's font list. */
export type FontSlot = 'serif' | 'sans' | 'mono';

interface FontFace {
  face: string;
  /** What Hancom uses when `face` is not installed. */
  substitute: string;
  family: 'FCAT_MYUNGJO' | 'FCAT_GOTHIC' | 'FCAT_SSERIF';
  /** PANOSE proportion: 9 for monospaced faces. */
  proportion: number;
}

/** Hancom's default Hangul faces for body and headings, with the Windows faces that stand in for them. */
const FONTS: Record<FontSlot, FontFace & { id: number }> = {
  serif: { id: 0, face: '함초롬바탕', substitute: '바탕', family: 'FCAT_MYUNGJO', proportion: 4 },
  sans: { id: 1, face: '함초롬돋움', substitute: '돋움', family: 'FCAT_GOTHIC', proportion: 4 },
  mono: { id: 2, face: '굴림체', substitute: '돋움체', family: 'FCAT_SSERIF', proportion: 9 },
};

const LANGUAGES = ['HANGUL', 'LATIN', 'HANJA', 'JAPANESE', 'OTHER', 'SYMBOL', 'USER'] as const;
const LANGUAGE_KEYS = ['hangul', 'latin', 'hanja', 'japanese', 'other', 'symbol', 'user'] as const;

/** How a stretch of text looks. */
export interface CharShape {
  font: FontSlot;
  /** Hundredths of a point. */
  height: number;
  bold: boolean;
  italic: boolean;
  strike: boolean;
  /** Link text: blue and underlined. */
  link: boolean;
  /** Inline code: a light grey background. */
  shaded: boolean;
}

export const BODY_HEIGHT = 1000;
const CODE_HEIGHT = 950;
/** Heading sizes by level, 16 pt down to 10 pt. */
const HEADING_HEIGHTS = [1600, 1400, 1300, 1200, 1100, 1000];

const PLAIN: CharShape = {
  font: 'serif',
  height: BODY_HEIGHT,
  bold: false,
  italic: false,
  strike: false,
  link: false,
  shaded: false,
};

/** Body text. */
export const BODY_CHAR: CharShape = PLAIN;
/** Code, inline or in a block. */
export const CODE_CHAR: CharShape = { ...PLAIN, font: 'mono', height: CODE_HEIGHT, shaded: true };

/** The base look of a heading at `level` (1 to 6): the sans face, larger. */
export function headingChar(level: number): CharShape {
  return { ...PLAIN, font: 'sans', height: HEADING_HEIGHTS[clampLevel(level) - 1] };
}

// ---- paragraph shapes ---------------------------------------------------------------------

interface ParaShape {
  align: 'JUSTIFY' | 'LEFT' | 'CENTER';
  /** Outline level or bullet Hancom attaches to the paragraph. */
  heading?: { type: 'OUTLINE' | 'BULLET'; idRef: number; level: number };
  /** Left margin. */
  left: number;
  /** First-line indent; negative for a hanging indent. */
  indent: number;
  before: number;
  after: number;
  /** Line spacing, percent of the font height. */
  lineSpacing: number;
  keepWithNext: boolean;
  borderFill: number;
}

const LIST_INDENT = 2000;
const HANGING = 1400;
const BODY_PARA: ParaShape = {
  align: 'JUSTIFY',
  left: 0,
  indent: 0,
  before: 0,
  after: 400,
  lineSpacing: 160,
  keepWithNext: false,
  borderFill: BORDER_FILL.none,
};
const CELL_PARA: ParaShape = { ...BODY_PARA, align: 'LEFT', after: 0, lineSpacing: 130 };

/** Bullet characters by list level. */
const BULLET_CHARS = ['●', '○', '■', '□', '◆', '◇'];

const FIXED_PARA_SHAPES = {
  body: BODY_PARA,
  cell: CELL_PARA,
  headerCell: { ...CELL_PARA, align: 'CENTER' },
  code: { ...BODY_PARA, align: 'LEFT', after: 0, lineSpacing: 130, left: 600, borderFill: BORDER_FILL.code },
  quote: { ...BODY_PARA, left: LIST_INDENT, borderFill: BORDER_FILL.quote },
  rule: { ...BODY_PARA, lineSpacing: 100, borderFill: BORDER_FILL.rule },
} satisfies Record<string, ParaShape>;

const FIXED_NAMES = Object.keys(FIXED_PARA_SHAPES) as (keyof typeof FIXED_PARA_SHAPES)[];
const HEADING_BASE = FIXED_NAMES.length;
const BULLET_BASE = HEADING_BASE + HEADING_LEVELS;
const INDENTED_BASE = BULLET_BASE + LIST_LEVELS;

/** Paragraph shape ids, by use. */
export const PARA_SHAPE = {
  ...(Object.fromEntries(FIXED_NAMES.map((name, id) => [name, id])) as Record<keyof typeof FIXED_PARA_SHAPES, number>),
  /** A heading at Markdown level 1 to 6: an outline paragraph of that level. */
  heading: (level: number): number => HEADING_BASE + clampLevel(level) - 1,
  /** A bulleted list item at nesting level `level` (from 0). */
  bullet: (level: number): number => BULLET_BASE + clampListLevel(level),
  /** A numbered list item (its number written as text) or an item's further paragraph, at `level`. */
  indented: (level: number): number => INDENTED_BASE + clampListLevel(level),
};

/** Every paragraph shape, in id order. */
function paraShapes(): ParaShape[] {
  const levels = Array.from({ length: LIST_LEVELS }, (_, level) => level);
  return [
    ...FIXED_NAMES.map((name) => FIXED_PARA_SHAPES[name]),
    ...Array.from({ length: HEADING_LEVELS }, (_, index) => ({
      ...BODY_PARA,
      align: 'LEFT' as const,
      heading: { type: 'OUTLINE' as const, idRef: OUTLINE_NUMBERING_ID, level: index },
      before: index === 0 ? 1200 : 800,
      after: 400,
      keepWithNext: true,
    })),
    ...levels.map((level) => ({
      ...BODY_PARA,
      heading: { type: 'BULLET' as const, idRef: level + 1, level },
      left: LIST_INDENT * (level + 1),
      after: 200,
    })),
    ...levels.map((level) => ({ ...BODY_PARA, left: LIST_INDENT * (level + 1), indent: -HANGING, after: 200 })),
  ];
}

// ---- styles -------------------------------------------------------------------------------

interface Style {
  name: string;
  engName: string;
  paraShape: number;
  charShape: CharShape;
}

/** Style ids, by use. */
export const STYLE = {
  normal: 0,
  /** 개요 n (Outline n) for a heading of level n. */
  heading: (level: number): number => clampLevel(level),
  quote: HEADING_LEVELS + 1,
  code: HEADING_LEVELS + 2,
};

function styles(): Style[] {
  return [
    { name: '바탕글', engName: 'Normal', paraShape: PARA_SHAPE.body, charShape: BODY_CHAR },
    ...Array.from({ length: HEADING_LEVELS }, (_, index) => ({
      name: `개요 ${index + 1}`,
      engName: `Outline ${index + 1}`,
      paraShape: PARA_SHAPE.heading(index + 1),
      charShape: headingChar(index + 1),
    })),
    { name: '인용', engName: 'Quotation', paraShape: PARA_SHAPE.quote, charShape: BODY_CHAR },
    { name: '코드', engName: 'Code', paraShape: PARA_SHAPE.code, charShape: CODE_CHAR },
  ];
}

// ---- the style book -----------------------------------------------------------------------

/** Character shapes as the section asks for them, each distinct look once; `xml` writes the whole header. */
export class HwpxStyleBook {
  private readonly charShapes: CharShape[] = [];
  private readonly charIds = new Map<string, number>();
  private readonly styleList = styles();

  constructor() {
    this.charShape(BODY_CHAR);
    for (const style of this.styleList) this.charShape(style.charShape);
  }

  /** The id of the character shape that looks like `shape`, added on first use. */
  charShape(shape: CharShape): number {
    const key = JSON.stringify(shape);
    let id = this.charIds.get(key);
    if (id === undefined) {
      id = this.charShapes.length;
      this.charShapes.push(shape);
      this.charIds.set(key, id);
    }
    return id;
  }

  /** `Contents/header.xml` for a document of `sections` sections. */
  xml(sections: number): string {
    const shapes = paraShapes();
    return xmlPart(
      element(
        'hh:head',
        { ...OWPML_NAMESPACES, version: OWPML_VERSION, secCnt: sections },
        element('hh:beginNum', { page: 1, footnote: 1, endnote: 1, pic: 1, tbl: 1, equation: 1 }),
        element(
          'hh:refList',
          {},
          list('hh:fontfaces', LANGUAGES.map(fontFace)),
          list('hh:borderFills', borderFills()),
          list(
            'hh:charProperties',
            this.charShapes.map((shape, id) => charPr(id, shape)),
          ),
          list('hh:tabProperties', [element('hh:tabPr', { id: 0, autoTabLeft: 0, autoTabRight: 0 })]),
          list('hh:numberings', [outlineNumbering()]),
          list('hh:bullets', BULLET_CHARS.map(bullet)),
          list(
            'hh:paraProperties',
            shapes.map((shape, id) => paraPr(id, shape)),
          ),
          list(
            'hh:styles',
            this.styleList.map((style, id) => this.style(id, style)),
          ),
        ),
        element('hh:compatibleDocument', { targetProgram: 'HWP201X' }, element('hh:layoutCompatibility')),
        element('hh:docOption', {}, element('hh:linkinfo', { path: '', pageInherit: 0, footnoteInherit: 0 })),
        // Hancom's own spelling of the element.
        element('hh:trackchageConfig', { flags: 56 }),
      ),
    );
  }

  private style(id: number, style: Style): string {
    return element('hh:style', {
      id,
      type: 'PARA',
      name: style.name,
      engName: style.engName,
      paraPrIDRef: style.paraShape,
      charPrIDRef: this.charShape(style.charShape),
      nextStyleIDRef: id === 0 || id > HEADING_LEVELS ? id : STYLE.normal,
      langID: 1042,
      lockForm: 0,
    });
  }
}

/** A counted list element (`itemCnt`). */
function list(name: string, items: string[]): string {
  return element(name, { itemCnt: items.length }, ...items);
}

function fontFace(lang: (typeof LANGUAGES)[number]): string {
  const fonts = Object.values(FONTS).sort((a, b) => a.id - b.id);
  return element(
    'hh:fontface',
    { lang, fontCnt: fonts.length },
    ...fonts.map((font) =>
      element(
        'hh:font',
        { id: font.id, face: font.face, type: 'TTF', isEmbedded: 0 },
        element('hh:substFont', { face: font.substitute, type: 'TTF', isEmbedded: 0, binaryItemIDRef: '' }),
        element('hh:typeInfo', {
          familyType: font.family,
          weight: 6,
          proportion: font.proportion,
          contrast: 0,
          strokeVariation: 1,
          armStyle: 1,
          letterform: 1,
          midline: 1,
          xHeight: 1,
        }),
      ),
    ),
  );
}

/** The same value for every language (`hangul="100" latin="100" …`). */
function perLanguage(value: number): Attributes {
  return Object.fromEntries(LANGUAGE_KEYS.map((key) => [key, value]));
}

type Side = 'left' | 'right' | 'top' | 'bottom';

interface Line {
  width: string;
  color: string;
}

function borderFill(id: number, lines: Partial<Record<Side, Line>>, fill?: string): string {
  const side = (name: Side): string => {
    const line = lines[name];
    return element(`hh:${name}Border`, {
      type: line === undefined ? 'NONE' : 'SOLID',
      width: line?.width ?? '0.1 mm',
      color: line?.color ?? '#000000',
    });
  };
  return element(
    'hh:borderFill',
    { id, threeD: 0, shadow: 0, centerLine: 'NONE', breakCellSeparateLine: 0 },
    element('hh:slash', { type: 'NONE', Crooked: 0, isCounter: 0 }),
    element('hh:backSlash', { type: 'NONE', Crooked: 0, isCounter: 0 }),
    side('left'),
    side('right'),
    side('top'),
    side('bottom'),
    element('hh:diagonal', { type: 'SOLID', width: '0.1 mm', color: '#000000' }),
    fill === undefined
      ? ''
      : element('hc:fillBrush', {}, element('hc:winBrush', { faceColor: fill, hatchColor: '#999999', alpha: 0 })),
  );
}

function borderFills(): string[] {
  const thin: Line = { width: '0.12 mm', color: '#000000' };
  const grid = { left: thin, right: thin, top: thin, bottom: thin };
  const grey = (width: string): Line => ({ width, color: '#A0A0A0' });
  return [
    borderFill(BORDER_FILL.none, {}),
    borderFill(BORDER_FILL.cell, grid),
    borderFill(BORDER_FILL.headerCell, grid, '#E7EDF7'),
    borderFill(BORDER_FILL.rule, { bottom: grey('0.4 mm') }),
    borderFill(BORDER_FILL.code, {}, '#F2F2F2'),
    borderFill(BORDER_FILL.quote, { left: grey('0.7 mm') }),
  ];
}

function charPr(id: number, shape: CharShape): string {
  const font = FONTS[shape.font].id;
  return element(
    'hh:charPr',
    {
      id,
      height: shape.height,
      textColor: shape.link ? '#0000FF' : '#000000',
      shadeColor: shape.shaded ? '#F2F2F2' : 'none',
      useFontSpace: 0,
      useKerning: 0,
      symMark: 'NONE',
      borderFillIDRef: BORDER_FILL.none,
    },
    element('hh:fontRef', perLanguage(font)),
    element('hh:ratio', perLanguage(100)),
    element('hh:spacing', perLanguage(0)),
    element('hh:relSz', perLanguage(100)),
    element('hh:offset', perLanguage(0)),
    shape.italic ? element('hh:italic') : '',
    shape.bold ? element('hh:bold') : '',
    shape.link ? element('hh:underline', { type: 'BOTTOM', shape: 'SOLID', color: '#0000FF' }) : '',
    shape.strike ? element('hh:strikeout', { shape: 'SOLID', color: '#000000' }) : '',
  );
}

/** Ten outline levels that draw nothing before the heading text. */
function outlineNumbering(): string {
  return element(
    'hh:numbering',
    { id: OUTLINE_NUMBERING_ID, start: 0 },
    ...Array.from({ length: 10 }, (_, index) =>
      element('hh:paraHead', {
        start: 1,
        level: index + 1,
        align: 'LEFT',
        useInstWidth: 0,
        autoIndent: 0,
        widthAdjust: 0,
        textOffsetType: 'PERCENT',
        textOffset: 0,
        numFormat: 'DIGIT',
        charPrIDRef: 4294967295,
        checkable: 0,
      }),
    ),
  );
}

function bullet(char: string, index: number): string {
  return element(
    'hh:bullet',
    { id: index + 1, char, useImage: 0 },
    element('hh:paraHead', {
      level: 0,
      align: 'LEFT',
      useInstWidth: 0,
      autoIndent: 1,
      widthAdjust: 0,
      textOffsetType: 'PERCENT',
      textOffset: 50,
      numFormat: 'DIGIT',
      charPrIDRef: 4294967295,
      checkable: 0,
    }),
  );
}

function paraPr(id: number, shape: ParaShape): string {
  const length = (name: string, value: number): string => element(`hc:${name}`, { value, unit: 'HWPUNIT' });
  return element(
    'hh:paraPr',
    { id, tabPrIDRef: 0, condense: 0, fontLineHeight: 0, snapToGrid: 1, suppressLineNumbers: 0, checked: 0 },
    element('hh:align', { horizontal: shape.align, vertical: 'BASELINE' }),
    element('hh:heading', {
      type: shape.heading?.type ?? 'NONE',
      idRef: shape.heading?.idRef ?? 0,
      level: shape.heading?.level ?? 0,
    }),
    element('hh:breakSetting', {
      breakLatinWord: 'KEEP_WORD',
      breakNonLatinWord: 'KEEP_WORD',
      widowOrphan: 0,
      keepWithNext: shape.keepWithNext ? 1 : 0,
      keepLines: 0,
      pageBreakBefore: 0,
      lineWrap: 'BREAK',
    }),
    element('hh:autoSpacing', { eAsianEng: 0, eAsianNum: 0 }),
    element(
      'hh:margin',
      {},
      length('intent', shape.indent),
      length('left', shape.left),
      length('right', 0),
      length('prev', shape.before),
      length('next', shape.after),
    ),
    element('hh:lineSpacing', { type: 'PERCENT', value: shape.lineSpacing, unit: 'HWPUNIT' }),
    element('hh:border', {
      borderFillIDRef: shape.borderFill,
      offsetLeft: shape.borderFill === BORDER_FILL.none ? 0 : 400,
      offsetRight: 0,
      offsetTop: 0,
      offsetBottom: 0,
      connect: 1,
      ignoreMargin: 0,
    }),
  );
}

function clampLevel(level: number): number {
  return Math.min(HEADING_LEVELS, Math.max(1, level));
}

function clampListLevel(level: number): number {
  return Math.min(LIST_LEVELS - 1, Math.max(0, level));
}
