import type { ReactNode } from 'react';
import { Cell, Column, Row, Table, TableBody, TableHeader } from 'react-aria-components';
import { messageOf } from '../api/client.js';
import type { ListState } from '../data/queries.js';
import { Button } from './button.js';

export interface TableColumn<T> {
  readonly id: string;
  readonly label: string;
  readonly cell: (item: T) => ReactNode;
  /** The column that names the row (read out first by screen readers); one per table. */
  readonly isRowHeader?: boolean;
}

/**
 * A list as an accessible table (arrow keys move between cells; a row with `rowHref` opens its record
 * on Enter or click), then its error with a retry, an empty state, and "Load more" while the server has
 * more. In a narrow window the rows become cards.
 */
export function DataTable<T>(props: {
  readonly label: string;
  readonly columns: readonly TableColumn<T>[];
  readonly list: ListState<T>;
  readonly rowKey: (item: T) => string;
  readonly rowHref?: (item: T) => string;
  /** What to show when there is nothing: what to do next. */
  readonly empty: ReactNode;
}) {
  const { list, columns } = props;
  return (
    <div className="data-table">
      {list.error !== null && (
        <div className="notice notice-error" role="alert">
          <p>{messageOf(list.error)}</p>
          <Button onPress={list.retry}>Try again</Button>
        </div>
      )}
      <div className="table-wrap">
        <Table aria-label={props.label} className="table">
          <TableHeader columns={columns}>
            {(column) => (
              <Column id={column.id} isRowHeader={column.isRowHeader ?? false}>
                {column.label}
              </Column>
            )}
          </TableHeader>
          <TableBody
            items={list.items.map((item) => ({ id: props.rowKey(item), item }))}
            dependencies={[columns]}
            renderEmptyState={() =>
              list.isPending ? <p className="muted">Loading…</p> : list.error === null ? props.empty : null
            }
          >
            {({ id, item }) => (
              <Row
                id={id}
                columns={columns}
                {...(props.rowHref === undefined ? {} : { href: props.rowHref(item) })}
              >
                {(column) => <Cell data-label={column.label}>{column.cell(item)}</Cell>}
              </Row>
            )}
          </TableBody>
        </Table>
      </div>
      {list.hasMore && (
        <Button onPress={list.loadMore} isPending={list.isFetchingMore}>
          Load more
        </Button>
      )}
    </div>
  );
}
