import { useEffect, useState, type ReactNode } from 'react';
import {
  Button as AriaButton,
  ComboBox,
  FieldError,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Text,
} from 'react-aria-components';
import type { z } from 'zod';
import { messageOf, type QueryValues, type Surface } from '../api/client.js';
import { useList } from '../data/queries.js';

/** A record the operator picked: its id for the API, its label for the operator. */
export interface Picked {
  readonly id: string;
  readonly label: string;
}

/** How many records the picker offers at a time: enough to choose from, few enough to read. */
const OFFERED = 20;

/**
 * A searchable choice of one record of an operator list (`GET {path}?query=`): the list is fetched once
 * the field is used, then again for what is typed (after a pause), and the keyboard and screen-reader
 * behaviour are React Aria's ComboBox. Options of an earlier search are not shown while the typed text
 * is searched, so a pick is always of what the server found for it.
 */
export function RecordPicker<S extends z.ZodType>(props: {
  readonly label: string;
  readonly description?: ReactNode;
  readonly placeholder?: string;
  readonly surface?: Surface;
  readonly path: string;
  readonly schema: S;
  /** Further filters of the list, beside `query`. */
  readonly query?: QueryValues;
  readonly itemId: (item: z.output<S>) => string;
  readonly itemLabel: (item: z.output<S>) => string;
  /** A second line in the options (a slug, "Deactivated"). */
  readonly itemDetail?: (item: z.output<S>) => string | null;
  readonly value: Picked | null;
  readonly onChange: (value: Picked | null) => void;
  readonly errorMessage?: string | undefined;
  readonly isRequired?: boolean;
}) {
  const { value } = props;
  const pickedLabel = value?.label ?? '';
  const [text, setText] = useState(pickedLabel);
  const [search, setSearch] = useState('');
  const [used, setUsed] = useState(false);
  useEffect(() => setText(pickedLabel), [pickedLabel]);
  // The picked record's own label is not a search: the options then show the others too.
  const wanted = text === pickedLabel ? '' : text.trim();
  useEffect(() => {
    const timer = window.setTimeout(() => setSearch(wanted), 250);
    return () => window.clearTimeout(timer);
  }, [wanted]);
  const list = useList(
    props.surface ?? 'auth',
    props.path,
    props.schema,
    { ...props.query, query: search, limit: OFFERED },
    { enabled: used },
  );
  const searching = search !== wanted || list.isPending;
  const options = (searching ? [] : list.items).map((item) => ({
    id: props.itemId(item),
    label: props.itemLabel(item),
    detail: props.itemDetail?.(item) ?? null,
  }));
  // The picked record stays an option while a search does not find it, so the choice is kept.
  if (value !== null && !options.some((option) => option.id === value.id)) {
    options.unshift({ ...value, detail: null });
  }
  return (
    <ComboBox
      className="field picker"
      items={options}
      inputValue={text}
      onInputChange={(next) => {
        setText(next);
        if (next === '' && value !== null) props.onChange(null);
      }}
      selectedKey={value?.id ?? null}
      onSelectionChange={(key) => {
        const option = options.find((candidate) => candidate.id === key);
        // With both the text and the choice controlled, the text follows the choice in the same update,
        // or React Aria reads the later change of text as typing and opens the list again.
        if (option !== undefined) setText(option.label);
        if (option?.id !== value?.id)
          props.onChange(option === undefined ? null : { id: option.id, label: option.label });
      }}
      onOpenChange={(open) => open && setUsed(true)}
      onFocus={() => setUsed(true)}
      menuTrigger="focus"
      allowsEmptyCollection
      isRequired={props.isRequired ?? false}
      isInvalid={props.errorMessage !== undefined}
      validationBehavior="aria"
    >
      <Label>{props.label}</Label>
      <div className="search-row">
        <Input placeholder={props.placeholder ?? ''} />
        {value !== null && (
          <AriaButton
            className="icon-button"
            aria-label={`Clear ${props.label.toLowerCase()}`}
            onPress={() => {
              setText('');
              props.onChange(null);
            }}
          >
            ×
          </AriaButton>
        )}
        <AriaButton className="icon-button" aria-label={`Show ${props.label.toLowerCase()} choices`}>
          <span aria-hidden="true">▾</span>
        </AriaButton>
      </div>
      {props.description !== undefined && <Text slot="description">{props.description}</Text>}
      <FieldError>{props.errorMessage}</FieldError>
      <Popover className="popover">
        <ListBox
          className="listbox"
          renderEmptyState={() => (
            <p className="listbox-empty muted">
              {list.error !== null
                ? messageOf(list.error)
                : searching
                  ? 'Searching…'
                  : 'Nothing matches: type another name.'}
            </p>
          )}
        >
          {(option: (typeof options)[number]) => (
            <ListBoxItem id={option.id} textValue={option.label} className="listbox-item">
              <Text slot="label">{option.label}</Text>
              {option.detail !== null && (
                <Text slot="description" className="hint">
                  {option.detail}
                </Text>
              )}
            </ListBoxItem>
          )}
        </ListBox>
        {!searching && list.hasMore && (
          <p className="listbox-empty muted">More match: type to narrow the list.</p>
        )}
      </Popover>
    </ComboBox>
  );
}
