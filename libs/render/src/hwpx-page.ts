import { BORDER_FILL, OUTLINE_NUMBERING_ID } from './hwpx-styles';
import { element } from './hwpx-xml';

/**
 * The section's settings, as the run that opens its first paragraph: an A4 portrait page with
 * Hancom's default margins, the outline numbering the headings use, note settings, and one column.
 */
export function sectionSettingsRun(): string {
  const noteSettings = (name: string, length: number, place: string): string =>
    element(
      name,
      {},
      element('hp:autoNumFormat', { type: 'DIGIT', userChar: '', prefixChar: '', suffixChar: ')', supscript: 0 }),
      element('hp:noteLine', { length, type: 'SOLID', width: '0.12 mm', color: '#000000' }),
      element('hp:noteSpacing', { betweenNotes: 283, belowLine: 567, aboveLine: 850 }),
      element('hp:numbering', { type: 'CONTINUOUS', newNum: 1 }),
      element('hp:placement', { place, beneathText: 0 }),
    );
  const pageBorder = (type: string): string =>
    element(
      'hp:pageBorderFill',
      {
        type,
        borderFillIDRef: BORDER_FILL.none,
        textBorder: 'PAPER',
        headerInside: 0,
        footerInside: 0,
        fillArea: 'PAPER',
      },
      element('hp:offset', { left: 1417, right: 1417, top: 1417, bottom: 1417 }),
    );
  const settings = element(
    'hp:secPr',
    {
      id: '',
      textDirection: 'HORIZONTAL',
      spaceColumns: 1134,
      tabStop: 8000,
      outlineShapeIDRef: OUTLINE_NUMBERING_ID,
      memoShapeIDRef: 0,
      textVerticalWidthHead: 0,
      masterPageCnt: 0,
    },
    element('hp:grid', { lineGrid: 0, charGrid: 0, wonggojiFormat: 0 }),
    element('hp:startNum', { pageStartsOn: 'BOTH', page: 0, pic: 0, tbl: 0, equation: 0 }),
    element('hp:visibility', {
      hideFirstHeader: 0,
      hideFirstFooter: 0,
      hideFirstMasterPage: 0,
      border: 'SHOW_ALL',
      fill: 'SHOW_ALL',
      hideFirstPageNum: 0,
      hideFirstEmptyLine: 0,
      showLineNumber: 0,
    }),
    element('hp:lineNumberShape', { restartType: 0, countBy: 0, distance: 0, startNumber: 0 }),
    element(
      'hp:pagePr',
      { landscape: 'WIDELY', width: 59528, height: 84188, gutterType: 'LEFT_ONLY' },
      element('hp:margin', { header: 4252, footer: 4252, gutter: 0, left: 8504, right: 8504, top: 5668, bottom: 4252 }),
    ),
    noteSettings('hp:footNotePr', -1, 'EACH_COLUMN'),
    noteSettings('hp:endNotePr', 14692344, 'END_OF_DOCUMENT'),
    pageBorder('BOTH'),
    pageBorder('EVEN'),
    pageBorder('ODD'),
  );
  const columns = element(
    'hp:ctrl',
    {},
    element('hp:colPr', { id: '', type: 'NEWSPAPER', layout: 'LEFT', colCount: 1, sameSz: 1, sameGap: 0 }),
  );
  return element('hp:run', { charPrIDRef: 0 }, settings, columns);
}
