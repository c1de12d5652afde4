/**
 * An OOXML chart part (`c:chartSpace`) for tests: a clustered bar chart with a title, string
 * categories and numeric series, each with the cached values Office and Hangul write beside the
 * cell references.
 */
export function barChartPart(
  title: string,
  categories: string[],
  series: { name: string; values: number[] }[],
): string {
  const strCache = (values: string[]) =>
    `<c:strCache><c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}</c:strCache>`;
  const numCache = (values: number[]) =>
    `<c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}</c:numCache>`;
  const column = (i: number) => String.fromCharCode(66 + i);
  const sers = series
    .map(
      (s, i) =>
        `<c:ser><c:idx val="${i}"/><c:order val="${i}"/>` +
        `<c:tx><c:strRef><c:f>Sheet1!$${column(i)}$1</c:f>${strCache([s.name])}</c:strRef></c:tx>` +
        `<c:cat><c:strRef><c:f>Sheet1!$A$2:$A$${categories.length + 1}</c:f>${strCache(categories)}</c:strRef></c:cat>` +
        `<c:val><c:numRef><c:f>Sheet1!$${column(i)}$2:$${column(i)}$${categories.length + 1}</c:f>${numCache(s.values)}</c:numRef></c:val></c:ser>`,
    )
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
    `<c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>${title}</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title>` +
    `<c:autoTitleDeleted val="0"/><c:plotArea><c:layout/><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>${sers}` +
    '<c:axId val="1"/><c:axId val="2"/></c:barChart><c:catAx><c:axId val="1"/></c:catAx><c:valAx><c:axId val="2"/></c:valAx></c:plotArea></c:chart></c:chartSpace>'
  );
}
