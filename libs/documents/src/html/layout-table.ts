import type { PlacedCell } from '@docconv/model';
import {
  attribute,
  isElement,
  isUnseen,
  numberAttribute,
  type HtmlElement,
  type HtmlNode,
  type HtmlParent,
} from './html-dom';

/** What only a data table holds: a caption, column groups, a head or foot, header cells (its own, not a nested table's). */
const DATA_TABLE_PARTS = new Set(['caption', 'col', 'colgroup', 'thead', 'tfoot', 'th']);

/** A border declaration (`border`, `border-top`, `border-width`…), not `border-collapse`, `-spacing` or `-radius`. */
const BORDER_DECLARATION = /(?:^|[;{\s])border(?:-(?:top|right|bottom|left))?(?:-(?:width|style))?\s*:\s*([^;}]*)/gi;

/** A stylesheet rule: its selectors and its declarations. */
const CSS_RULE = /([^{}]+)\{([^{}]*)\}/g;

/** Selectors that reach every table or cell of the page: the element alone, or a cell within a table. */
const TABLE_SELECTOR = /^(?:table\s+)?(?:table|td|th)$/i;

/**
 * Whether the page's style sheets draw borders around every table or cell (`table, td { border:
 * 1px solid }`): those tables show a grid, as data tables do.
 */
export function styledCellBorders(document: HtmlParent): boolean {
  const stack: HtmlNode[] = [...document.childNodes];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (!isElement(node)) continue;
    if (node.tagName !== 'style') {
      stack.push(...node.childNodes);
      continue;
    }
    const css = node.childNodes.map((child) => ('value' in child ? String(child.value) : '')).join('');
    for (const [, selectors, declarations] of css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(CSS_RULE)) {
      const reachesAll = selectors.split(',').some((selector) => TABLE_SELECTOR.test(selector.trim()));
      if (reachesAll && drawsBorder(declarations)) return true;
    }
  }
  return false;
}

/** Whether CSS declarations draw a border: a width other than zero, a line style other than none or hidden. */
function drawsBorder(declarations: string): boolean {
  return [...`;${declarations}`.matchAll(BORDER_DECLARATION)].some(([, value]) => {
    const words = value.trim().toLowerCase().split(/\s+/);
    return !words.some((word) => /^(?:0[a-z%]*|none|hidden)$/.test(word)) && words[0] !== '';
  });
}

/**
 * Whether a table lays a page out rather than holding data, by Mozilla Readability's test (after
 * Firefox's accessibility one), as e-mails and older pages use them: marked so (`role` of
 * `presentation` or `none`, `datatable="0"`); or, with nothing of its own that only a data table
 * holds (a summary, `DATA_TABLE_PARTS`; a nested table's header cells are that table's, where
 * Readability counts them for the outer one too) and no grid drawn around every cell (a `border`
 * attribute that does not read as 0, or the page's `styledCellBorders`: Firefox's border test, taken before
 * the nesting one, since a reader sees a drawn grid as a table; a border on one cell, an accent
 * line, is no grid), holding a table or only one row or one column. Readability's last
 * guess, by size alone, is not taken: a small table of figures without header cells stays a
 * table. `cells` are the table's own, placed on its grid; `height` counts its rows.
 */
export function isLayoutTable(
  table: HtmlElement,
  height: number,
  cells: readonly PlacedCell[],
  pageBorders: boolean,
): boolean {
  const role = attribute(table, 'role')?.trim().toLowerCase();
  if (role === 'presentation' || role === 'none' || attribute(table, 'datatable')?.trim() === '0') return true;
  // As browsers draw it: any `border` but one that reads as zero (`border` alone draws 1 pixel).
  const border = attribute(table, 'border');
  const gridDrawn = pageBorders || (border !== undefined && numberAttribute(table, 'border') !== 0);
  if (attribute(table, 'summary')?.trim() || gridDrawn) return false;
  let nested = false;
  const stack: HtmlNode[] = [...table.childNodes];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (!isElement(node) || isUnseen(node)) continue;
    if (DATA_TABLE_PARTS.has(node.tagName)) return false;
    if (node.tagName === 'table') nested = true;
    else stack.push(...node.childNodes);
  }
  const width = cells.reduce((w, cell) => Math.max(w, cell.col + cell.colspan), 0);
  return nested || height === 1 || width === 1;
}
