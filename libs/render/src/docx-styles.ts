import {
  BorderStyle,
  LineRuleType,
  ShadingType,
  type IParagraphStyleOptions,
  type IRunStylePropertiesOptions,
  type IStylesOptions,
} from 'docx';

/** Style ids the document's paragraphs refer to. */
export const STYLE = {
  code: 'CodeBlock',
  quote: 'BlockQuote',
  tableText: 'TableText',
  listParagraph: 'ListParagraph',
  footnoteText: 'FootnoteText',
  footnoteReference: 'FootnoteReference',
  hyperlink: 'Hyperlink',
} as const;

/** Indentation per list level and of block quotes, in twentieths of a point (half an inch). */
export const INDENT_TWIPS = 720;
export const CODE_SHADING = 'F2F2F2';

/**
 * Fonts by script. Word picks the East Asian font for Hangul and CJK characters, so Korean text needs a font there
 * that has Hangul: Malgun Gothic ships with Windows, and LibreOffice lists it among the names it replaces with an
 * installed Korean font (NanumGothic, for instance) when it is missing.
 */
const BODY_FONT = { ascii: 'Calibri', hAnsi: 'Calibri', cs: 'Calibri', eastAsia: 'Malgun Gothic' };
const HEADING_FONT = { ascii: 'Calibri Light', hAnsi: 'Calibri Light', cs: 'Calibri Light', eastAsia: 'Malgun Gothic' };
export const MONOSPACE_FONT = { ascii: 'Consolas', hAnsi: 'Consolas', cs: 'Consolas', eastAsia: 'Malgun Gothic' };

/** Body text size in half-points (11 pt). */
const BODY_SIZE = 22;
/** Space after a paragraph (8 pt) and line spacing (1.15 lines, in 240ths of a line), as Word's own template has. */
const PARAGRAPH_AFTER = 160;
const LINE_SPACING = 276;

const HEADING_COLOR = '2F5496';
const DEEP_HEADING_COLOR = '1F3763';

/** Size (half-points) and spacing (twips) of each heading level, after Word's built-in heading styles. */
const HEADINGS: { size: number; before: number; after: number; run?: IRunStylePropertiesOptions }[] = [
  { size: 32, before: 360, after: 120 },
  { size: 26, before: 240, after: 80 },
  { size: 24, before: 200, after: 60, run: { color: DEEP_HEADING_COLOR } },
  { size: 22, before: 200, after: 40, run: { italics: true } },
  { size: 22, before: 160, after: 40 },
  { size: 22, before: 160, after: 40, run: { italics: true, color: DEEP_HEADING_COLOR } },
];

/**
 * The document's styles, modelled on Word's Normal template: 11 pt body text with 8 pt after each paragraph and
 * 1.15 line spacing, and Heading 1 to 6 under Word's built-in ids and names with their outline levels, so Word's
 * navigation pane and table of contents (and LibreOffice's navigator) find the headings. Code blocks, block quotes,
 * list items and table cells have styles of their own; the lines of a code block and the items of a list are set
 * without space between them (contextual spacing), with the usual space after the last.
 */
export function documentStyles(): IStylesOptions {
  return {
    default: {
      document: { run: { font: BODY_FONT, size: BODY_SIZE } },
    },
    paragraphStyles: [
      {
        id: 'Normal',
        name: 'Normal',
        quickFormat: true,
        run: { font: BODY_FONT, size: BODY_SIZE },
        paragraph: { spacing: { after: PARAGRAPH_AFTER, line: LINE_SPACING, lineRule: LineRuleType.AUTO } },
      },
      ...HEADINGS.map((heading, index) => headingStyle(index + 1, heading)),
      {
        id: STYLE.code,
        name: 'Code Block',
        basedOn: 'Normal',
        run: { font: MONOSPACE_FONT, size: 19 },
        paragraph: {
          contextualSpacing: true,
          spacing: { before: 0, after: PARAGRAPH_AFTER, line: 240, lineRule: LineRuleType.AUTO },
          shading: { type: ShadingType.CLEAR, color: 'auto', fill: CODE_SHADING },
        },
      },
      {
        id: STYLE.quote,
        name: 'Block Quote',
        basedOn: 'Normal',
        run: { italics: true, color: '555555' },
        paragraph: {
          indent: { left: INDENT_TWIPS },
          border: { left: { style: BorderStyle.SINGLE, size: 12, color: 'BBBBBB', space: 8 } },
        },
      },
      {
        id: STYLE.listParagraph,
        name: 'List Paragraph',
        basedOn: 'Normal',
        quickFormat: true,
        uiPriority: 34,
        paragraph: { contextualSpacing: true },
      },
      {
        id: STYLE.tableText,
        name: 'Table Text',
        basedOn: 'Normal',
        paragraph: { spacing: { before: 0, after: 0, line: 240, lineRule: LineRuleType.AUTO } },
      },
    ],
  };
}

/** Heading N as Word defines it: id `HeadingN`, name `heading N`, outline level N - 1, kept with what follows. */
function headingStyle(level: number, heading: (typeof HEADINGS)[number]): IParagraphStyleOptions {
  return {
    id: `Heading${level}`,
    name: `heading ${level}`,
    basedOn: 'Normal',
    next: 'Normal',
    quickFormat: true,
    uiPriority: 9,
    run: { font: HEADING_FONT, size: heading.size, color: HEADING_COLOR, ...heading.run },
    paragraph: {
      keepNext: true,
      keepLines: true,
      outlineLevel: level - 1,
      spacing: { before: heading.before, after: heading.after },
    },
  };
}
