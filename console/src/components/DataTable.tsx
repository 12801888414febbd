import type { ComponentChildren } from 'preact';

/** A column heading: its label, right-aligned for numbers, or read only by screen readers (a column of buttons). */
export interface Column {
  label: string;
  number?: boolean;
  labelHidden?: boolean;
}

/**
 * The console's tables: a scrolling wrapper, a caption (seen, or for screen
 * readers only), column headings, and the rows the page renders.
 */
export function DataTable({ caption, captionHidden, columns, children }: { caption: string; captionHidden?: boolean; columns: Array<string | Column>; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table>
        <caption class={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const column = typeof c === 'string' ? { label: c } : c;
              return (
                <th scope="col" key={column.label} class={column.number ? 'number' : undefined}>
                  {column.labelHidden ? <span class="visually-hidden">{column.label}</span> : column.label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
