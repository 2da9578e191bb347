import { SelectField } from '../ui/fields.js';
import type { ListSearch } from './list-search.js';

type Status = NonNullable<ListSearch['status']> | 'any';

/** Active, inactive or any record, as a list's filter. */
export function StatusFilter(props: {
  readonly value: ListSearch['status'];
  readonly onChange: (status: ListSearch['status']) => void;
  /** What the list calls a record that is no longer active. */
  readonly inactiveLabel?: string;
}) {
  return (
    <SelectField<Status>
      label="Status"
      field={{
        name: 'status',
        value: props.value ?? 'any',
        onChange: (value) => props.onChange(value === 'any' ? undefined : value),
        errorMessage: undefined,
      }}
      choices={[
        { id: 'any', label: 'Any' },
        { id: 'active', label: 'Active' },
        { id: 'inactive', label: props.inactiveLabel ?? 'Deactivated' },
      ]}
    />
  );
}
