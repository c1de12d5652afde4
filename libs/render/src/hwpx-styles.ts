/**
 * The fixed part of an HWPX style book, as data: fonts, the character shapes of body text, code
 * and headings, the paragraph shapes (body, headings, bullets, indents, cells) with their ids, and
 * the named styles. hwpx-header.ts writes them as `Contents/header.xml`; the section refers to
 * them by the ids here.
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

export interface FontFace {
  face: string;
  /** What Hancom uses when `face` is not installed. */
  substitute: string;
  family: 'FCAT_MYUNGJO' | 'FCAT_GOTHIC' | 'FCAT_SSERIF';
  /** PANOSE proportion: 9 for monospaced faces. */
  proportion: number;
}

/** Hancom's default Hangul faces for body and headings, with the Windows faces that stand in for them. */
export const FONTS: Record<FontSlot, FontFace & { id: number }> = {
  serif: { id: 0, face: '함초롬바탕', substitute: '바탕', family: 'FCAT_MYUNGJO', proportion: 4 },
  sans: { id: 1, face: '함초롬돋움', substitute: '돋움', family: 'FCAT_GOTHIC', proportion: 4 },
  mono: { id: 2, face: '굴림체', substitute: '돋움체', family: 'FCAT_SSERIF', proportion: 9 },
};

export const LANGUAGES = ['HANGUL', 'LATIN', 'HANJA', 'JAPANESE', 'OTHER', 'SYMBOL', 'USER'] as const;
export const LANGUAGE_KEYS = ['hangul', 'latin', 'hanja', 'japanese', 'other', 'symbol', 'user'] as const;

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

export interface ParaShape {
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
export const BULLET_CHARS = ['●', '○', '■', '□', '◆', '◇'];

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
export function paraShapes(): ParaShape[] {
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

export interface Style {
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

export function styles(): Style[] {
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

function clampLevel(level: number): number {
  return Math.min(HEADING_LEVELS, Math.max(1, level));
}

function clampListLevel(level: number): number {
  return Math.min(LIST_LEVELS - 1, Math.max(0, level));
}
