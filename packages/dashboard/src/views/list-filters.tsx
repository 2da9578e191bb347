import type { ReactNode } from 'react';
import { SearchBox } from '../ui/search.js';
import type { ListSearch } from './list-search.js';
import { StatusFilter } from './status-filter.js';

/**
 * A list's search box and status filter, bound to its link's `q` and `status`; `children` are the list's
 * other filters, between the two.
 */
export function ListFilters(props: {
  readonly search: ListSearch;
  readonly onChange: (next: Partial<ListSearch>) => void;
  readonly placeholder: string;
  readonly label?: string;
  readonly children?: ReactNode;
}) {
  return (
    <div className="filters">
      <SearchBox
        label={props.label ?? 'Search'}
        placeholder={props.placeholder}
        value={props.search.q ?? ''}
        onSearch={(q) => props.onChange({ q: q || undefined })}
      />
      {props.children}
      <StatusFilter value={props.search.status} onChange={(status) => props.onChange({ status })} />
    </div>
  );
}
