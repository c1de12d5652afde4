import type { ComponentChildren } from 'preact';

/** A column's header: its text, or text only a screen reader reads (over a column of buttons). */
export type Column = string | { hidden: string };

/**
 * The console's tables, all alike: in a labelled region that scrolls sideways and takes the
 * keyboard's focus, one row of column headers, then the rows the caller gives.
 */
export function DataTable(props: { label: string; columns: Column[]; testId?: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={props.label}>
      <table data-testid={props.testId}>
        <thead>
          <tr>
            {props.columns.map((column, i) => (
              <th scope="col" key={i}>
                {typeof column === 'string' ? column : <span class="visually-hidden">{column.hidden}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
