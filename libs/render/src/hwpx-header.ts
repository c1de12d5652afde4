import { element, OWPML_NAMESPACES, OWPML_VERSION, xmlPart, type Attributes } from './hwpx-xml';
import {
  BODY_CHAR,
  BORDER_FILL,
  BULLET_CHARS,
  FONTS,
  HEADING_LEVELS,
  LANGUAGE_KEYS,
  LANGUAGES,
  OUTLINE_NUMBERING_ID,
  paraShapes,
  STYLE,
  styles,
  type CharShape,
  type ParaShape,
  type Style,
} from './hwpx-styles';

/**
 * The style book of an HWPX document (`Contents/header.xml`): fonts, borders and fills, character
 * shapes, paragraph shapes with the heading and bullet settings Hancom draws from, and the named
 * styles. Paragraph shapes and styles are a fixed set (hwpx-styles.ts); character shapes are added
 * as the section asks for them, one per distinct look.
 *
 * Lengths are HWPUNIT (1/7200 inch, 100 to the point); font heights are hundredths of a point.
 */

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
