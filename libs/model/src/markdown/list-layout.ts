import type { ListItemBlock } from '../document';

/** Where a list item goes: the spaces before its marker and the marker itself. */
export interface ListPlace {
  indent: number;
  marker: string;
}

/**
 * Lays out the list items of a run of consecutive items (one list, or several lists that follow
 * each other), as the Markdown writer meets them.
 *
 * - A nested item is indented to its parent's content, and at least four columns further than
 *   the parent's marker, so it nests under `10.` as well as under `-`.
 * - Markdown joins adjacent lists of the same kind into one: an item that starts a different
 *   list (`list`) than the item before it at its depth switches the marker (`-` ↔ `*`, `1.` ↔
 *   `1)`), so the two lists stay apart, at the top level or nested under one item. Items that say
 *   nothing of their list continue the one before.
 */
export class ListLayout {
  /** For each depth of the current run, where its children's markers go. */
  private childIndents: number[] = [];
  /**
   * For each depth, the list the last item there belongs to (its key, kind and whether its marker
   * is the switched one), while no shallower item has come since.
   */
  private lists: ({ key?: string; ordered: boolean; alternate: boolean } | undefined)[] = [];

  /** The place of the next item of the run. */
  place(item: ListItemBlock): ListPlace {
    const ordered = item.number !== undefined;
    const depth = Math.max(0, item.depth);
    const before = this.lists[depth];
    const continues = before !== undefined && before.ordered === ordered;
    const sameList = item.list === undefined || before?.key === item.list;
    const alternate = continues ? (sameList ? before.alternate : !before.alternate) : false;
    this.lists.length = depth;
    this.lists[depth] = { key: item.list ?? (continues ? before.key : undefined), ordered, alternate };
    const delimiter = item.delimiter ?? '.';
    // A label the document prints (`a.`, `(iii)`) is kept as it is.
    const marker =
      item.marker ??
      (ordered ? `${item.number}${alternate ? (delimiter === '.' ? ')' : '.') : delimiter}` : alternate ? '*' : '-');
    const indent = this.indentAt(depth);
    this.childIndents.length = depth;
    this.childIndents[depth] = Math.max(indent + marker.length + 1, indent + 4);
    return { indent, marker };
  }

  /** A block other than a list item: the run is over. */
  end(): void {
    this.childIndents = [];
    this.lists = [];
  }

  private indentAt(depth: number): number {
    if (depth === 0) return 0;
    return this.childIndents[depth - 1] ?? this.indentAt(depth - 1) + 4;
  }
}
