export { type InlineRun } from './markdown-tree';
export { htmlTables, htmlSegments, type HtmlCell, type HtmlTable, type HtmlSegment } from './html-tables';
export { tableFromHtml, tableGrid, filledGrid, columnNames, type Table, type CellRange } from './table-model';
export { documentBlocks, type Block } from './document-blocks';
export { renderDocx, type DocxOptions } from './render-docx';
export { renderPptx, type PptxOptions } from './render-pptx';
export { renderHwpx, type HwpxOptions } from './render-hwpx';
export { renderXlsxBasic, type XlsxBasicOptions } from './render-xlsx-basic';
export {
  renderXlsxAdvanced,
  matchColumns,
  type AdvancedWorkbook,
  type ColumnMapper,
  type XlsxAdvancedOptions,
} from './render-xlsx-advanced';
export { typedValue, type TypedValue } from './typed-value';
export { renderInThread, RenderLimitError, type RenderRequest } from './render-in-thread';
