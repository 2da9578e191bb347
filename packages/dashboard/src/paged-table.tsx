import type { ReactNode } from 'react';
import type { Paged } from './use-paged.js';

export interface Column<T> {
  readonly label: string;
  readonly cell: (item: T) => ReactNode;
}

/** A list as a table (scrolling sideways in a narrow window), its error inline and a "Load more". */
export function PagedTable<T>(props: {
  readonly caption: string;
  readonly columns: readonly Column<T>[];
  readonly rowKey: (item: T) => string;
  readonly paged: Paged<T>;
}) {
  const { caption, columns, rowKey, paged } = props;
  return (
    <section>
      <h2>{caption}</h2>
      {paged.error !== undefined && (
        <p className="error" role="alert">
          {paged.error}
        </p>
      )}
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.label} scope="col">
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {paged.items.map((item) => (
              <tr key={rowKey(item)}>
                {columns.map((column) => (
                  <td key={column.label} data-label={column.label}>
                    {column.cell(item)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!paged.loading && paged.error === undefined && paged.items.length === 0 && (
        <p className="muted">None yet.</p>
      )}
      {paged.loading && <p className="muted">Loading…</p>}
      {paged.hasMore && !paged.loading && (
        <button type="button" onClick={paged.loadMore}>
          Load more
        </button>
      )}
    </section>
  );
}

/** A yes/no cell. */
export function Flag(props: { readonly on: boolean; readonly yes: string; readonly no: string }) {
  return <span className={props.on ? 'badge badge-on' : 'badge'}>{props.on ? props.yes : props.no}</span>;
}

/** A time as the operator's locale writes it, the exact value on hover. */
export function Time(props: { readonly iso: string }) {
  return (
    <time dateTime={props.iso} title={props.iso}>
      {new Date(props.iso).toLocaleString()}
    </time>
  );
}
