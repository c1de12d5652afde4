import { makeZip } from '../../../../../test/support/archives';

/**
 * OWPML (HWPX) documents for tests: a style book with outline, bullet and title paragraph shapes
 * (more definitions can be added to its reference list), sections of paragraphs, runs, tables with
 * merged cells and captions, notes, pictures and text boxes.
 */

const NS =
  'xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" ' +
  'xmlns:hc="http://www.hancom.co.kr/hwpml/2011/core" xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head"';

const HEADER = (
  refList = '',
): string => `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><hh:head ${NS} version="1.4" secCnt="2"><hh:refList>
<hh:bullets itemCnt="1"><hh:bullet id="1" char="●" useImage="0"><hh:paraHead level="0" align="LEFT"/></hh:bullet></hh:bullets>
<hh:paraProperties itemCnt="4">
<hh:paraPr id="0"><hh:align horizontal="JUSTIFY"/><hh:heading type="NONE" idRef="0" level="0"/></hh:paraPr>
<hh:paraPr id="1"><hh:heading type="OUTLINE" idRef="0" level="0"/></hh:paraPr>
<hh:paraPr id="2"><hh:heading type="OUTLINE" idRef="0" level="1"/></hh:paraPr>
<hh:paraPr id="3"><hh:heading type="BULLET" idRef="1" level="0"/></hh:paraPr>
</hh:paraProperties>
<hh:styles itemCnt="3">
<hh:style id="0" type="PARA" name="바탕글" engName="Normal" paraPrIDRef="0" charPrIDRef="0"/>
<hh:style id="1" type="PARA" name="개요 1" engName="Outline 1" paraPrIDRef="1" charPrIDRef="0"/>
<hh:style id="2" type="PARA" name="제목" engName="Title" paraPrIDRef="0" charPrIDRef="0"/>
</hh:styles>${refList}</hh:refList></hh:head>`;

export interface ParaOptions {
  paraPr?: number;
  style?: number;
  pageBreak?: boolean;
}

/** A paragraph; `content` is raw run content, or plain text for a single run. */
export function p(content: string, options: ParaOptions = {}): string {
  const inner = content.startsWith('<') ? content : run(content);
  return (
    `<hp:p id="0" paraPrIDRef="${options.paraPr ?? 0}" styleIDRef="${options.style ?? 0}" ` +
    `pageBreak="${options.pageBreak ? 1 : 0}" columnBreak="0" merged="0">${inner}` +
    '<hp:linesegarray><hp:lineseg textpos="0" vertpos="0" vertsize="1000" textheight="1000" baseline="850" spacing="600" horzpos="0" horzsize="42520" flags="393216"/></hp:linesegarray></hp:p>'
  );
}

export function run(...texts: string[]): string {
  return `<hp:run charPrIDRef="0">${texts.map((t) => (t.startsWith('<') ? t : `<hp:t>${t}</hp:t>`)).join('')}</hp:run>`;
}

export function subList(paragraphs: string[]): string {
  return `<hp:subList id="" textDirection="HORIZONTAL" lineWrap="BREAK" vertAlign="CENTER">${paragraphs.join('')}</hp:subList>`;
}

export interface CellSpec {
  row: number;
  col: number;
  rowSpan?: number;
  colSpan?: number;
  /** Paragraph texts, or raw paragraphs when they start with `<`. */
  paragraphs: string[];
}

export function tbl(rows: CellSpec[][], options: { addresses?: boolean; caption?: string } = {}): string {
  const colCnt = Math.max(...rows.flat().map((c) => c.col + (c.colSpan ?? 1)));
  const trs = rows
    .map(
      (cells) =>
        '<hp:tr>' +
        cells
          .map(
            (c) =>
              '<hp:tc name="" header="0" hasMargin="0" protect="0" editable="0" dirty="0" borderFillIDRef="2">' +
              subList(c.paragraphs.map((t) => (t.startsWith('<') ? t : p(t)))) +
              (options.addresses === false ? '' : `<hp:cellAddr colAddr="${c.col}" rowAddr="${c.row}"/>`) +
              `<hp:cellSpan colSpan="${c.colSpan ?? 1}" rowSpan="${c.rowSpan ?? 1}"/>` +
              '<hp:cellSz width="10000" height="282"/><hp:cellMargin left="141" right="141" top="141" bottom="141"/></hp:tc>',
          )
          .join('') +
        '</hp:tr>',
    )
    .join('');
  const caption = options.caption
    ? `<hp:caption side="BOTTOM" fullSz="0" width="8504" gap="850" lastWidth="40454">${subList([p(options.caption)])}</hp:caption>`
    : '';
  return (
    `<hp:tbl id="1" zOrder="0" numberingType="TABLE" textWrap="TOP_AND_BOTTOM" rowCnt="${rows.length}" colCnt="${colCnt}" cellSpacing="0" borderFillIDRef="2" noAdjust="0">` +
    '<hp:sz width="40000" widthRelTo="ABSOLUTE" height="4000" heightRelTo="ABSOLUTE" protect="0"/>' +
    '<hp:pos treatAsChar="1" affectLSpacing="0" flowWithText="1" allowOverlap="0" holdAnchorAndSO="0" vertRelTo="PARA" horzRelTo="PARA" vertAlign="TOP" horzAlign="LEFT" vertOffset="0" horzOffset="0"/>' +
    `<hp:outMargin left="283" right="283" top="283" bottom="283"/>${caption}<hp:inMargin left="141" right="141" top="141" bottom="141"/>` +
    `${trs}</hp:tbl>`
  );
}

export const SECTION_PR =
  '<hp:secPr id="" textDirection="HORIZONTAL" spaceColumns="1134" tabStop="8000"><hp:pagePr landscape="WIDELY" width="59528" height="84188" gutterType="LEFT_ONLY"><hp:margin header="4252" footer="4252" gutter="0" left="8504" right="8504" top="5668" bottom="4252"/></hp:pagePr></hp:secPr>' +
  '<hp:ctrl><hp:colPr id="" type="NEWSPAPER" layout="LEFT" colCount="1" sameSz="1" sameGap="0"/></hp:ctrl>';

export const PICTURE =
  '<hp:pic id="5" zOrder="2" numberingType="PICTURE" textWrap="TOP_AND_BOTTOM"><hp:orgSz width="16350" height="9810"/>' +
  '<hc:img binaryItemIDRef="image1" bright="0" contrast="0" effect="REAL_PIC" alpha="0"/>' +
  '<hp:shapeComment>그림입니다. 원본 그림의 이름: photo.jpg</hp:shapeComment></hp:pic>';

export const TEXT_BOX =
  '<hp:rect id="7" zOrder="3" numberingType="PICTURE" textWrap="IN_FRONT_OF_TEXT"><hp:drawText lastWidth="10000" name="" editable="0">' +
  `${subList([p('글상자 안의 글')])}<hp:textMargin left="283" right="283" top="283" bottom="283"/></hp:drawText></hp:rect>`;

export const FOOTNOTE = `<hp:ctrl><hp:footNote number="1" suffixChar="41" instId="1">${subList([p('각주의 설명입니다.')])}</hp:footNote></hp:ctrl>`;

export function section(paragraphs: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><hs:sec ${NS}>${paragraphs.join('')}</hs:sec>`;
}

export function hwpx(sections: string[], extra: { name: string; data: string }[] = [], refList = ''): Buffer {
  return makeZip([
    { name: 'mimetype', data: 'application/hwp+zip', store: true },
    {
      name: 'version.xml',
      data: '<?xml version="1.0"?><hv:HCFVersion xmlns:hv="http://www.hancom.co.kr/hwpml/2011/version"/>',
    },
    {
      name: 'META-INF/container.xml',
      data: '<?xml version="1.0"?><ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:xmlns:container"/>',
    },
    { name: 'Contents/header.xml', data: HEADER(refList) },
    ...sections.map((xml, i) => ({ name: `Contents/section${i}.xml`, data: xml })),
    ...extra,
  ]);
}
